"""A cluster with InfiniBand VFs on a managed fabric is Ready only once the fabric reports them in its partition."""

from django.urls import reverse

from tenants import services
from tenants.choices import ClusterState
from tests.fabrics.conftest import programmed
from vsphere import tasks
from vsphere.reconcile.journal import StepLog


def _converged(cluster) -> str:
    """What the vSphere reconcile does once vCenter matches the intent (tasks._succeed)."""
    cluster.refresh_from_db()
    return tasks._succeed(cluster, cluster.generation, StepLog(cluster, cluster.generation))


def test_a_converged_cluster_waits_for_the_fabric_and_turns_ready_once_the_report_shows_its_ports(
    world, site, monkeypatch, django_capture_on_commit_callbacks
):
    cluster = site.approve(world.tenant_a, world.owner_a)
    services.set_observed(cluster, ClusterState.PROVISIONING, "Reconciling on vSphere")
    assert _converged(cluster) == "waiting"
    cluster.refresh_from_db()
    assert cluster.state == ClusterState.PROVISIONING and "partition 0x0010" in cluster.status_message
    queued = []
    monkeypatch.setattr("tenants.realizers.realize", queued.append)
    with django_capture_on_commit_callbacks(execute=True):
        report = programmed(site.desired())
        site.agent().post(reverse("agent-fabric-report", kwargs={"fabric": "ib0"}), report, format="json")
    assert queued == [cluster.pk]  # the fabric's report re-queues the waiting reconcile
    assert _converged(cluster) == "ready"
    cluster.refresh_from_db()
    assert cluster.state == ClusterState.READY


def test_a_cluster_on_a_host_no_fabric_manages_is_not_held_back(world, site):
    from fabrics.models import FabricHost

    FabricHost.objects.all().delete()
    cluster = site.approve(world.tenant_b, world.owner_b, name="plain")
    services.set_observed(cluster, ClusterState.PROVISIONING, "Reconciling on vSphere")
    assert _converged(cluster) == "ready"


def test_a_segment_on_a_pool_of_the_fabric_waits_until_its_nodes_ports_are_in_the_partition(world, site, api):
    from agents import services as agent_services
    from fabrics import services as fabric_services
    from netpolicy import realization, segments
    from netpolicy.models import Pool

    pool = agent_services.create_pool("ib-rack")
    _, raw = agent_services.create_join_token(pool)
    node, _ = agent_services.join(raw, "n1", {}, [])
    port = {"device": "mlx5_0", "port": 1, "guid": "0x0002c90300b00001", "netdev": "ib0"}
    agent_services.record_observed(node, {"generation": 0, "ib_ports": [port]})
    fabric_services.update_fabric(site.fabric, {}, pools=[pool])
    Pool.objects.create(name="vnis", kind="vni", first=5000, last=5999)
    segment = segments.create_segment(world.tenant_b, world.admin, {"name": "ib", "kind": "overlay", "node_pool": pool})
    segment.observed_generation = segment.generation
    assert "waiting for InfiniBand fabric ib0" in realization.summary(segment, [])
    segment.save(update_fields=["observed_generation"])
    api_url = f"/api/v1/segments/{segment.pk}/"
    waiting = api(world.owner_b).get(api_url).json()["waiting_for"]
    assert waiting == ["InfiniBand fabric ib0 to program partition 0x0010 on 1 of 1 ports (0x0002c90300b00001)"]
    site.agent().post(reverse("agent-fabric-report", kwargs={"fabric": "ib0"}), programmed(site.desired()),
                      format="json")  # fmt: skip
    assert "waiting" not in realization.summary(segment, [])
    assert api(world.owner_b).get(api_url).json()["waiting_for"] == []


def test_the_sweep_recompiles_a_fabric_whose_hook_was_missed(world, site):
    from fabrics.tasks import sync_fabrics
    from vsphere.models import VFAssignment

    cluster = site.approve(world.tenant_a, world.owner_a)
    VFAssignment.objects.filter(cluster=cluster).delete()  # released without telling the fabrics app
    assert sync_fabrics() == 1
    assert site.desired()["partitions"] == []


def test_the_vsphere_intent_gives_each_ib_vf_the_mac_that_carries_its_port_guid(world, site):
    from vsphere.models import VFAssignment
    from vsphere.plan import vf_mac
    from vsphere.reconcile.intent import cluster_intent

    cluster = site.approve(world.tenant_a, world.owner_a)
    guids = dict(VFAssignment.objects.filter(cluster=cluster).values_list("node_name", "port_guid"))
    assert guids and all(guids.values())
    nodes = cluster_intent(cluster, site.vcenter).nodes
    assert {n.name: vf_mac.guid_for_mac(n.sriov_macs[0]) for n in nodes if n.sriov_pfs} == guids


def test_a_vf_guid_range_no_adapter_mac_can_carry_is_refused_with_the_form_it_needs(world, site, api):
    client = api(world.admin)
    url = f"/api/v1/fabrics/{site.fabric.pk}/"
    answer = client.patch(url, {"vf_guid_first": "0x0002c90300a00000"}, format="json")
    assert answer.status_code == 400 and "0xXXXXXXfffeYYYYYY" in str(answer.json())
    answer = client.patch(url, {"vf_guid_first": "0x005056fffeffff00", "vf_guid_count": 4096}, format="json")
    assert answer.status_code == 400 and "one MAC prefix" in str(answer.json())
    site.fabric.refresh_from_db()
    assert site.fabric.vf_guid_first == "0x005056fffea00000"
