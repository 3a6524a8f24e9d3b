"""Hand out SR-IOV VFs to a cluster's nodes: never more than a PF enables, safe under concurrency."""

from collections import Counter

from django.db import transaction
from django.db.models import Count

from core.errors import Conflict
from tenants.choices import Interconnect
from tenants.models import VirtualCluster
from vsphere.choices import LinkType
from vsphere.models import Host, PhysicalFunction, VCenter, VFAssignment

LINK_OF = {Interconnect.SRIOV_IB: LinkType.INFINIBAND, Interconnect.SRIOV_ROCE: LinkType.ETHERNET}


def sriov_node_names(cluster: VirtualCluster) -> list[str]:
    """Nodes that take a VF: the Slurm manager and every worker (the login node does not)."""
    from vsphere.intent import node_names

    return [name for role, name in node_names(cluster) if role != "login"] if cluster.uses_sriov else []


def allocate(cluster: VirtualCluster, vcenter: VCenter) -> list[VFAssignment]:
    """Give every SR-IOV node of the cluster one VF (idempotent); Conflict if capacity is short."""
    wanted = sriov_node_names(cluster)
    with transaction.atomic():
        # Locking every candidate PF serializes competing approvals on this site.
        pfs = list(
            PhysicalFunction.objects.select_for_update()
            .filter(host__vcenter=vcenter, link_type=LINK_OF.get(cluster.interconnect, LinkType.INFINIBAND))
            .select_related("host")
            .order_by("host__name", "pci_id")
        )
        have = {a.node_name: a for a in VFAssignment.objects.filter(cluster=cluster)}
        missing = [name for name in wanted if name not in have]
        if not missing:
            return [have[name] for name in wanted]
        used = _used_slots(pfs)
        free = sum(pf.max_vfs - len(used[pf.pk]) for pf in pfs)
        if free < len(missing):
            raise Conflict(f"Not enough free SR-IOV VFs: the cluster needs {len(missing)}, {free} are free.")
        per_host = Counter(a.pf.host_id for a in have.values())
        for name in missing:
            pf = _pick(pfs, used, per_host)
            slot = min(set(range(pf.max_vfs)) - used[pf.pk])
            have[name] = VFAssignment.objects.create(pf=pf, slot=slot, cluster=cluster, node_name=name)
            used[pf.pk].add(slot)
            per_host[pf.host_id] += 1
    return [have[name] for name in wanted]


def tentative(cluster: VirtualCluster, vcenter: VCenter) -> dict[str, PhysicalFunction]:
    """Where allocate() would put each SR-IOV node now, without taking anything (plan preview)."""
    pfs = list(
        PhysicalFunction.objects.filter(
            host__vcenter=vcenter, link_type=LINK_OF.get(cluster.interconnect, LinkType.INFINIBAND)
        )
        .select_related("host")
        .order_by("host__name", "pci_id")
    )
    used, per_host, placed = _used_slots(pfs), Counter(), {}
    for name in sriov_node_names(cluster):
        if not any(len(used[pf.pk]) < pf.max_vfs for pf in pfs):
            break  # preview shows the nodes that fit; approval will refuse the rest
        pf = _pick(pfs, used, per_host)
        used[pf.pk].add(min(set(range(pf.max_vfs)) - used[pf.pk]))
        per_host[pf.host_id] += 1
        placed[name] = pf
    return placed


def _used_slots(pfs: list[PhysicalFunction]) -> dict[int, set[int]]:
    used: dict[int, set[int]] = {pf.pk: set() for pf in pfs}
    for pf_id, slot in VFAssignment.objects.filter(pf__in=pfs).values_list("pf_id", "slot"):
        used[pf_id].add(slot)
    return used


def _pick(pfs, used, per_host) -> PhysicalFunction:
    """Spread nodes over hosts (fewest of this cluster's nodes first), then the emptiest PF."""
    candidates = [pf for pf in pfs if len(used[pf.pk]) < pf.max_vfs]
    return min(candidates, key=lambda pf: (per_host[pf.host_id], len(used[pf.pk]) - pf.max_vfs, pf.pk))


def release_unwanted(cluster: VirtualCluster) -> int:
    """Free the VFs of nodes the cluster no longer has (after scale-down or SR-IOV removal converged)."""
    deleted, _ = VFAssignment.objects.filter(cluster=cluster).exclude(node_name__in=sriov_node_names(cluster)).delete()
    return deleted


def release(cluster: VirtualCluster) -> int:
    """Free every VF the cluster holds (on decommission)."""
    deleted, _ = VFAssignment.objects.filter(cluster=cluster).delete()
    return deleted


def with_used(pfs):
    """PFs annotated with their VFs in use, so a list of them costs one query."""
    return pfs.annotate(used_vfs=Count("assignments"))


def _row(pf) -> dict:
    return {"id": pf.pk, "host": pf.host.name, "pf": pf.pci_id, "pnic": pf.pnic, "link_type": pf.link_type,
            "total": pf.max_vfs, "used": pf.used_vfs, "free": pf.max_vfs - pf.used_vfs}  # fmt: skip


def capacity(vcenter: VCenter) -> list[dict]:
    """Used and free VFs per PF, for the capacity page."""
    pfs = PhysicalFunction.objects.filter(host__vcenter=vcenter).select_related("host").order_by("host__name", "pci_id")
    return [_row(pf) for pf in with_used(pfs)]


def capacity_by_host(vcenter: VCenter) -> list[dict]:
    """capacity() grouped by host, with per-host totals (for the capacity page, chart and API)."""
    return capacity_by_vcenter([vcenter])[vcenter.pk]


def capacity_by_vcenter(vcenters) -> dict[int, list[dict]]:
    """{vCenter id: capacity_by_host} for several vCenters, in two queries."""
    report: dict[int, dict[str, dict]] = {vc.pk: {} for vc in vcenters}
    hosts = Host.objects.filter(vcenter__in=list(report)).order_by("name")
    for vcenter_id, name in hosts.values_list("vcenter_id", "name"):
        report[vcenter_id][name] = {"host": name, "total": 0, "used": 0, "free": 0, "pfs": []}
    pfs = PhysicalFunction.objects.filter(host__vcenter__in=list(report)).select_related("host")
    for pf in with_used(pfs.order_by("host__name", "pci_id")):
        host = report[pf.host.vcenter_id][pf.host.name]
        row = _row(pf)
        host["pfs"].append(row)
        for key in ("total", "used", "free"):
            host[key] += row[key]
    return {vcenter_id: list(hosts.values()) for vcenter_id, hosts in report.items()}
