"""Place nodes on hosts that have what they need, and take their devices: never more than a host has.

Used at approval and resize (take=True, inside the transaction: row locks serialize competing
approvals, PostgreSQL's constraints and triggers are the last word) and by the plan preview
(take=False: where each node would go, which device it would get, nothing taken).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db import transaction

from portal.errors import Conflict
from tenants.models import VirtualCluster
from vsphere.capacity import HostCapacity, NodeNeeds, SiteCapacity, node_needs, site_capacity
from vsphere.models import DeviceAssignment, PCIDevice, PhysicalFunction, VCenter, VFAssignment
from vsphere.models import VGPUProfile as Profile


@dataclass(frozen=True)
class Taken:
    """One device (or vGPU instance) a node holds or would hold."""

    device: PCIDevice
    profile: Profile | None = None
    slot: int = 0

    def __str__(self) -> str:
        if self.profile is not None:
            return f"vGPU {self.profile.name} on GPU {self.device.pci_id}"
        what = "GPU" if self.device.kind == "gpu" else "NIC"
        return f"{what} {self.device.pci_id} ({self.device.device_name or 'PCI device'})"


@dataclass
class Placement:
    """Where each constrained node runs and what it holds (VF: the PF; devices: whole or vGPU)."""

    hosts: dict[str, str] = field(default_factory=dict)  # node -> host name
    vfs: dict[str, PhysicalFunction] = field(default_factory=dict)
    devices: dict[str, list[Taken]] = field(default_factory=lambda: defaultdict(list))


def needs_placement(cluster: VirtualCluster) -> bool:
    """Whether some node can run only on some hosts (devices or host features beyond an SR-IOV VF)."""
    return any(needs.constrained for needs in node_needs(cluster).values())


def place(cluster: VirtualCluster, vcenter: VCenter, take: bool) -> Placement:
    """Choose a host for every constrained node and its devices; take them when `take` (idempotent)."""
    with transaction.atomic():
        site = site_capacity(vcenter, lock=take)
        placement = _held(cluster, site)
        spread = Counter(placement.hosts.values())
        for name, needs in node_needs(cluster).items():
            if not needs.constrained:
                continue
            host = site.hosts.get(placement.hosts.get(name, "")) or _choose(name, needs, site, spread)
            _take_missing(name, needs, host, site, placement, take, cluster)
            if name not in placement.hosts:
                placement.hosts[name] = host.name
                spread[host.name] += 1
    return placement


def _held(cluster: VirtualCluster, site: SiteCapacity) -> Placement:
    """What the cluster holds already: its nodes stay where their devices are."""
    placement = Placement()
    by_pk = site.by_pk()
    for row in DeviceAssignment.objects.filter(cluster=cluster).select_related("device", "profile"):
        placement.devices[row.node_name].append(Taken(row.device, row.profile, row.slot))
        placement.hosts[row.node_name] = by_pk[row.device.host_id].name if row.device.host_id in by_pk else ""
    for row in VFAssignment.objects.filter(cluster=cluster).select_related("pf"):
        placement.vfs[row.node_name] = row.pf
        placement.hosts.setdefault(row.node_name, by_pk[row.pf.host_id].name if row.pf.host_id in by_pk else "")
    return placement


def _choose(name: str, needs: NodeNeeds, site: SiteCapacity, spread: Counter) -> HostCapacity:
    """The host that can give the node everything now: fewest of this cluster's nodes, then most room."""
    fits = [h for h in site.hosts.values() if not h.lacks(needs, site.profiles, now=True)]
    if not fits:
        raise Conflict(_shortage(name, needs, site))
    return min(fits, key=lambda h: (spread[h.name], -_room(h, needs, site), h.name))


def _room(host: HostCapacity, needs: NodeNeeds, site: SiteCapacity) -> int:
    room = host.free_vfs(needs.vf_link) if needs.vf_link else 0
    room += len(host.free(host.nics)) + len(host.free(host.gpus))
    profile = site.profiles.get(needs.profile)
    return room + (len(host.vgpu_slots(profile)) if profile else 0)


def _shortage(name: str, needs: NodeNeeds, site: SiteCapacity) -> str:
    """Name what the node needs and what the hosts that could hold it lack now (taken by other clusters)."""
    could = [h for h in site.hosts.values() if not h.lacks(needs, site.profiles, now=False)]
    if not could:
        return f"{name} cannot be placed: no host of the site has {describe(needs)}."
    busy = "; ".join(f"{h.name} lacks {', '.join(h.lacks(needs, site.profiles, now=True))}" for h in could)
    return f"Not enough free devices: {name} needs {describe(needs)} on one host; now {busy}."


def describe(needs: NodeNeeds) -> str:
    """The node's needs in words, for messages and the plan preview."""
    parts = []
    if needs.vf_link:
        parts.append(f"an SR-IOV VF ({needs.vf_link})")
    if needs.nics:
        parts.append(f"{needs.nics} whole RoCE NIC(s)")
    if needs.gpus:
        parts.append(f"{needs.gpus} whole GPU(s)")
    if needs.vgpus:
        parts.append(f"{needs.vgpus} × vGPU {needs.profile}")
    parts += [what for what, wanted in (("PVRDMA", needs.pvrdma), ("ENS", needs.ens), ("DPU offload", needs.offload))
              if wanted]  # fmt: skip
    return ", ".join(parts) or "nothing special"


def _take_missing(name, needs, host, site, placement, take, cluster) -> None:
    """Give the node on `host` what it lacks: a VF, whole NICs and GPUs, vGPU instances."""
    held = placement.devices[name]
    if needs.vf_link and name not in placement.vfs:
        pf = _pick_pf(host, needs.vf_link, name)
        placement.vfs[name] = pf
        slot = min(set(range(pf.max_vfs)) - host.vf_slots[pf.pk])
        host.vf_slots[pf.pk].add(slot)
        if take:
            VFAssignment.objects.create(pf=pf, slot=slot, cluster=cluster, node_name=name)
    wanted = (("network", needs.nics, host.nics), ("gpu", needs.gpus, host.gpus))
    for kind, count, pool in wanted:
        have = sum(1 for t in held if t.profile is None and t.device.kind == kind)
        for device in host.free(pool)[: max(count - have, 0)]:
            _record(Taken(device), name, host, placement, take, cluster)
    if needs.vgpus:
        _take_vgpus(name, needs, host, site, placement, take, cluster)
    if _still_lacks(name, needs, placement):
        raise Conflict(_shortage(name, needs, site))


def _take_vgpus(name, needs, host, site, placement, take, cluster) -> None:
    profile = site.profiles[needs.profile]
    mine = {t.device.pk for t in placement.devices[name] if t.profile is not None}
    missing = needs.vgpus - len(mine)
    # Fill GPUs that already hold this profile before opening empty ones (keeps GPUs free for other sizes).
    slots = sorted(host.vgpu_slots(profile), key=lambda gs: (-len(host.taken.get(gs[0].pk, [])), gs[0].pci_id))
    for gpu, slot in [gs for gs in slots if gs[0].pk not in mine][: max(missing, 0)]:
        _record(Taken(gpu, profile, slot), name, host, placement, take, cluster)


def _record(taken: Taken, name, host, placement, take, cluster) -> None:
    placement.devices[name].append(taken)
    row = DeviceAssignment(device=taken.device, profile=taken.profile, slot=taken.slot, cluster=cluster, node_name=name)
    host.taken[taken.device.pk].append(row)
    if take:
        row.save()


def _still_lacks(name: str, needs: NodeNeeds, placement: Placement) -> bool:
    held = placement.devices[name]
    count = Counter("vgpu" if t.profile else t.device.kind for t in held)
    return (bool(needs.vf_link) and name not in placement.vfs) or count["network"] < needs.nics \
        or count["gpu"] < needs.gpus or count["vgpu"] < needs.vgpus  # fmt: skip


def _pick_pf(host: HostCapacity, link: str, name: str) -> PhysicalFunction:
    """The emptiest PF of the link type on the host."""
    free = [pf for pf in host.vfs.get(link, []) if pf.max_vfs > len(host.vf_slots[pf.pk])]
    if not free:
        raise Conflict(f"Not enough free SR-IOV VFs: {name} needs one on {host.name}, which has none free.")
    return min(free, key=lambda pf: (len(host.vf_slots[pf.pk]) - pf.max_vfs, pf.pk))


def release_unwanted(cluster: VirtualCluster) -> int:
    """Free devices of nodes the cluster no longer has, or no longer needs (after a converged resize)."""
    needs = node_needs(cluster)
    stale = [
        row.pk for row in DeviceAssignment.objects.filter(cluster=cluster).select_related("device", "profile")
        if not _still_wanted(row, needs.get(row.node_name))
    ]  # fmt: skip
    deleted, _ = DeviceAssignment.objects.filter(pk__in=stale).delete()
    return deleted


def _still_wanted(row: DeviceAssignment, needs: NodeNeeds | None) -> bool:
    if needs is None:
        return False
    if row.profile_id is not None:
        return needs.vgpus > 0 and row.profile.name == needs.profile
    return (needs.gpus if row.device.kind == "gpu" else needs.nics) > 0


def release(cluster: VirtualCluster) -> int:
    """Free every device the cluster holds (on decommission)."""
    deleted, _ = DeviceAssignment.objects.filter(cluster=cluster).delete()
    return deleted
