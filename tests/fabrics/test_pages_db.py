"""Pages and notes: the fabric pages for site admins, the cluster's partition, the SR-IOV notes true to the site."""

from django.urls import reverse

from fabrics.models import FabricHost, PartitionKey
from tenants import advice
from tests.fabrics.conftest import programmed
from vsphere.realizer import unprotected_paths


def test_the_fabric_page_shows_partitions_generations_and_warns_when_the_sm_is_not_hardened(world, site, client):
    site.approve(world.tenant_a, world.owner_a)
    report = programmed(site.desired())
    report["sm"] = {"kind": "opensm", "version": "3.3.23", "m_key": False, "sm_key": False,
                    "foreign_sms": ["0x0002c90300dead01"]}  # fmt: skip
    site.agent().post(reverse("agent-fabric-report", kwargs={"fabric": "ib0"}), report, format="json")
    client.force_login(world.admin)
    page = client.get(reverse("fabrics:fabric-detail", kwargs={"pk": site.fabric.pk})).content.decode()
    key = PartitionKey.objects.get(tenant=world.tenant_a, released__isnull=True)
    assert "partitions mean nothing if a tenant can run its own subnet manager" in page.lower()
    assert key.text in page and "0x0002c90300dead01" in page and "applied 2 of 2" in page
    listing = client.get(reverse("fabrics:fabric-list")).content.decode()
    assert "NOT protected" in listing


def test_a_hardened_fabric_shows_no_warning(world, site, client):
    site.agent().post(reverse("agent-fabric-report", kwargs={"fabric": "ib0"}), programmed(site.desired()),
                      format="json")  # fmt: skip
    client.force_login(world.admin)
    page = client.get(reverse("fabrics:fabric-detail", kwargs={"pk": site.fabric.pk})).content.decode()
    assert 'id="hardening-warning"' not in page


def test_the_cluster_page_shows_the_tenants_own_key_and_its_vfs_guids(world, site, client):
    cluster = site.approve(world.tenant_a, world.owner_a)
    site.approve(world.tenant_b, world.owner_b)
    client.force_login(world.owner_a)
    page = client.get(reverse("frontend:cluster-detail", kwargs={"pk": cluster.pk})).content.decode()
    own = PartitionKey.objects.get(tenant=world.tenant_a, released__isnull=True).text
    other = PartitionKey.objects.get(tenant=world.tenant_b, released__isnull=True).text
    guids = cluster.vf_assignments.values_list("port_guid", flat=True)
    assert f'id="ib-pkey">{own}<' in page and all(g in page for g in guids)
    assert other not in page


def test_the_notes_say_the_partition_only_where_a_managed_fabric_covers_the_hosts(world, site):
    cluster = site.approve(world.tenant_a, world.owner_a)
    key = PartitionKey.objects.get(tenant=world.tenant_a, released__isnull=True).text
    assert any(f"partition {key} on fabric ib0" in line for line in unprotected_paths(cluster))
    assert "own InfiniBand partition" in " ".join(advice.notes("parallel-distributed", "sriov-ib", "vlan", "standard"))
    FabricHost.objects.all().delete()
    assert any("NOT isolated" in line for line in unprotected_paths(cluster))
    assert "NOT isolated" in " ".join(advice.notes("parallel-distributed", "sriov-ib", "vlan", "standard"))
