"""Registrations into the layers below: they tell this app what changed and ask it what is ready, never import it."""

from django.db.models import Q
from enclave_agent import fabric_wire as wire

from agents import sources
from core import readiness
from fabrics import desired, membership, notes
from fabrics.choices import PartitionState
from fabrics.models import Fabric, FabricPool, PartitionKey
from tenants import advice, network, realizers
from vsphere import realizer


def register() -> None:
    """Called once from FabricsConfig.ready()."""
    realizers.on_held_changed("fabrics", cluster_held_changed)
    network.listen("fabrics", network_changed)
    readiness.register("cluster", "fabrics", cluster_waiting)
    readiness.register("segment", "fabrics", segment_waiting)
    sources.register_entry_extra("fabrics", pool_pkeys)
    realizer.IB_ISOLATION["note"] = notes.cluster_note
    advice.IB_ISOLATION["note"] = notes.site_note


def pool_pkeys(placed) -> dict:
    """{(pool, tenant): {"pkey": "0x0012"}} for tenants with a live partition on their pool's fabric."""
    pools = {pool for pool, _ in placed}
    fabric_of = dict(FabricPool.objects.filter(pool_id__in=pools).values_list("pool_id", "fabric_id"))
    if not fabric_of:
        return {}
    keys = PartitionKey.objects.filter(fabric_id__in=set(fabric_of.values()), released__isnull=True)
    by_fabric = {(f, t): k for f, t, k in keys.values_list("fabric_id", "tenant_id", "pkey")}
    return {(pool, tenant): {"pkey": wire.pkey_text(by_fabric[fabric_of[pool], tenant])}
            for pool, tenant in placed if (fabric_of.get(pool), tenant) in by_fabric}  # fmt: skip


def cluster_held_changed(cluster) -> None:
    """The cluster took or released VFs: the fabrics of their hosts, and those the tenant holds a key on."""
    hosts = list(cluster.vf_assignments.values_list("pf__host_id", flat=True))
    holding = Q(partitions__tenant_id=cluster.tenant_id, partitions__released__isnull=True)
    for fabric in Fabric.objects.filter(Q(host_links__host_id__in=hosts) | holding).distinct():
        desired.sync(fabric)


def network_changed(tenant_ids=None, pool_id=None) -> None:
    """Segments or a node's ports changed: every fabric with node pools follows, whichever pool `pool_id`
    names (a port GUID two nodes report leaves every partition, whichever pools or fabrics they are in)."""
    for fabric in Fabric.objects.filter(pool_links__isnull=False).distinct():
        desired.sync(fabric)


def tables(fabric: Fabric) -> dict[str, list[int]]:
    """The port tables of the fabric's last report, as integers."""
    ports = (fabric.last_report or {}).get("ports") or {}
    return {guid: [int(e, 16) for e in entries] for guid, entries in ports.items()}


def _waiting(tenant_id: int, guids_by_fabric: dict[int, list[str]]) -> list[str]:
    """Why these ports are not yet in the tenant's partitions, per fabric (empty: they all are)."""
    reasons = []
    for fabric in Fabric.objects.filter(pk__in=guids_by_fabric):
        key = PartitionKey.objects.filter(fabric=fabric, tenant_id=tenant_id, released__isnull=True).first()
        guids = guids_by_fabric[fabric.pk]
        shared = [g for g in guids if g in fabric.conflicts]
        if shared:
            reasons.append(f"InfiniBand port {shared[0]} to be used by one tenant only: another tenant's workload "
                           f"uses it too, so it joins no partition")  # fmt: skip
            continue
        if key is None or not all(guids):
            reasons.append(f"InfiniBand fabric {fabric.name} to give its ports a partition")
            continue
        programmed = tables(fabric)
        missing = [g for g in guids if not membership.port_in_partition(programmed, g, key.pkey)]
        if missing:
            verb = "restore (degraded: drift)" if key.state == PartitionState.DEGRADED else "program"
            reasons.append(f"InfiniBand fabric {fabric.name} to {verb} partition {wire.pkey_text(key.pkey)} "
                           f"on {len(missing)} of {len(guids)} ports ({', '.join(missing[:3])})")  # fmt: skip
    return reasons


def cluster_waiting(cluster) -> list[str]:
    """A cluster with InfiniBand VFs on a managed fabric is ready once the fabric reports them in its partition."""
    rows = desired.cluster_vfs(cluster)
    by_fabric: dict[int, list[str]] = {}
    for guid, fabric_id in rows:
        by_fabric.setdefault(fabric_id, []).append(guid)
    return _waiting(cluster.tenant_id, by_fabric) if by_fabric else []


def segment_waiting(segment) -> list[str]:
    """A segment on a node pool of a managed fabric is ready once the nodes' HCA ports are in its partition."""
    if not segment.node_pool_id:
        return []
    fabric_id = Fabric.objects.filter(pool_links__pool_id=segment.node_pool_id).values_list("pk", flat=True).first()
    if fabric_id is None:
        return []
    guids = [guid for _, _, guid in desired.node_ports([segment.node_pool_id])]
    return _waiting(segment.tenant_id, {fabric_id: guids}) if guids else []
