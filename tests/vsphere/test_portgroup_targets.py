"""Port-group filters are compiled tenant by tenant: one tenant that cannot be built never stops the others'."""

import datetime

import pytest
from django.utils import timezone

from netpolicy.choices import Action, Category
from netpolicy.models import FirewallPolicy, FirewallRule, Group, Pool, Segment, Service
from tenants.models import VirtualCluster
from tests.vsphere.sites import make_vcenter
from vsphere.models import Placement
from vsphere.reconcile import portgroup_filters

pytestmark = pytest.mark.django_db


def _placed_cluster(tenant, user, vcenter, vlan: int) -> None:
    """A Ready cluster of the tenant on its own VLAN segment of this vCenter."""
    pools = {p.kind: p for p in Pool.objects.filter(kind__in=["vlan", "ipv4"])}  # tests.vsphere.sites.ensure_pools
    segment = Segment.objects.create(tenant=tenant, name=f"lab{vlan}", kind="vlan", id_pool=pools["vlan"],
                                     vlan_id=vlan, prefix_pool=pools["ipv4"], subnet=f"10.240.{vlan}.0/26",
                                     gateway=f"10.240.{vlan}.1", state="ready")  # fmt: skip
    cluster = VirtualCluster.objects.create(
        tenant=tenant, name=f"c{vlan}", workload_class="parallel-distributed", worker_count=1, vcpus_per_node=2,
        memory_gb_per_node=4, lease_end=timezone.localdate() + datetime.timedelta(days=30), justification="x",
        state="ready", site_kind="vsphere", requested_by=user,
    )  # fmt: skip
    Placement.objects.create(cluster=cluster, site=vcenter, segment=segment)


def _oversize(tenant) -> None:
    """Tenant A's policy past the size bound, stored as a tenant saved before the bound would be."""
    groups = [Group.objects.create(tenant=tenant, name=f"g{i}", cidrs=[f"10.60.{i}.0/24"]) for i in range(120)]
    policy = FirewallPolicy.objects.create(tenant=tenant, name="big", category=Category.APPLICATION, sequence=50)
    rule = FirewallRule.objects.create(policy=policy, name="wide", sequence=10, action=Action.ALLOW)
    rule.sources.set(groups)
    rule.destinations.set(groups)
    rule.services.set(Service.objects.exclude(protocol="any"))


def test_a_tenant_that_cannot_be_built_gets_a_reject_all_filter_and_the_others_keep_theirs(world):
    vcenter = make_vcenter()
    _placed_cluster(world.tenant_a, world.owner_a, vcenter, 121)
    _placed_cluster(world.tenant_b, world.owner_b, vcenter, 122)
    _oversize(world.tenant_a)
    found = {target.vlan: target.rules for target in portgroup_filters.targets(vcenter)}
    assert set(found) == {121, 122}
    first = found[121][0]  # quarantined, as on its nodes: the first rule drops everything, both ways
    assert first.description.endswith("/quarantine") and first.action == "drop" and first.direction == "both"
    assert first.match()[2:] == (None,) * (len(first.match()) - 2)  # no protocol, address or port qualifier
    assert "accept" in {rule.action for rule in found[122]}
