"""Place nodes on hosts that have what they need, and take their devices: never more than a host has.

Used at approval and resize (take=True, inside the transaction: row locks serialize competing
approvals, PostgreSQL's constraints and triggers are the last word; the chosen host is kept as a
NodePlacement) and by the plan preview (take=False: where each node would go, which device it
would get, nothing taken). `layout()` gives the reconciler's intent what was placed.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db import transaction

from core.errors import Conflict
from tenants.models import VirtualCluster
from vsphere.capacity import HostCapacity, NodeNeeds, SiteCapacity, node_needs, site_capacity
from vsphere.device_specs import NodeDevices, PassthroughDevice
from vsphere.models import DeviceAssignment, NodePlacement, PCIDevice, PhysicalFunction, VCenter, VFAssignment
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
    vf_guids: dict[str, str] = field(default_factory=dict)  # node -> its VF's InfiniBand port GUID, once set
    devices: dict[str, list[Taken]] = field(default_factory=lambda: defaultdict(list))

    def held_on(self, name: str, host: str) -> list[Taken]:
        """What the node holds on that host (after a move, rows on the old host linger until converged)."""
        return [t for t in self.devices.get(name, []) if t.device.host.name == host]

    def node_devices(self, name: str, needs: NodeNeeds) -> NodeDevices:
        """What the node's VM must have beyond VFs: its devices on its host, PVRDMA, UPTv2, ENS."""
        taken = self.held_on(name, self.hosts.get(name, ""))
        whole = tuple(
            PassthroughDevice(t.device.pci_id, t.device.vendor_id, t.device.device_id, t.device.system_id, str(t))
            for t in taken if t.profile is None
        )  # fmt: skip
        vgpus = tuple(t.profile.name for t in taken if t.profile is not None)
        return NodeDevices(whole, vgpus, pvrdma=needs.pvrdma, uptv2=needs.offload, ens=needs.ens)


def needs_placement(cluster: VirtualCluster) -> bool:
    """Whether some node can run only on some hosts (devices or host features beyond an SR-IOV VF)."""
    return any(needs.constrained for needs in node_needs(cluster).values())


def place(cluster: VirtualCluster, vcenter: VCenter, take: bool) -> Placement:
    """Choose a host for every constrained node and its devices; take them when `take` (idempotent)."""
    with transaction.atomic():
        site = site_capacity(vcenter, lock=take)
        placement = layout(cluster)
        pinned = dict(placement.hosts)
        spread = Counter(placement.hosts.values())
        for name, needs in node_needs(cluster).items():
            if not needs.constrained:
                continue
            host = _kept_host(placement, name, needs, site) or _choose(name, needs, site, spread)
            _take_missing(name, needs, host, site, placement, take, cluster)
            if placement.hosts.get(name) != host.name:
                placement.hosts[name] = host.name
                spread[host.name] += 1
            if take and pinned.get(name) != host.name:
                NodePlacement.objects.update_or_create(cluster=cluster, node_name=name, defaults={"host_id": host.pk})
    return placement


def layout(cluster: VirtualCluster) -> Placement:
    """What the cluster holds (database only, a fixed number of queries): its nodes stay where they were placed."""
    placement = Placement()
    for row in NodePlacement.objects.filter(cluster=cluster).select_related("host"):
        placement.hosts[row.node_name] = row.host.name
    for row in DeviceAssignment.objects.filter(cluster=cluster).select_related("device__host", "profile"):
        placement.devices[row.node_name].append(Taken(row.device, row.profile, row.slot))
        placement.hosts.setdefault(row.node_name, row.device.host.name)
    for row in VFAssignment.objects.filter(cluster=cluster).select_related("pf__host"):
        placement.vfs[row.node_name] = row.pf
        placement.vf_guids[row.node_name] = row.port_guid or ""
        placement.hosts.setdefault(row.node_name, row.pf.host.name)
    return placement


def _kept_host(placement: Placement, name: str, needs: NodeNeeds, site: SiteCapacity) -> HostCapacity | None:
    """The node's host so far, unless it could never meet the node's needs now (a resize changed them)."""
    host = site.hosts.get(placement.hosts.get(name, ""))
    if host is None or host.lacks(needs, site.profiles, now=False):
        return None
    return host


def _choose(name: str, needs: NodeNeeds, site: SiteCapacity, spread: Counter) -> HostCapacity:
    """The host that can give the node everything now: fewest of this cluster's nodes, GPUs kept for GPU nodes,
    then most room."""
    fits = [h for h in site.hosts.values() if not h.lacks(needs, site.profiles, now=True)]
    if not fits:
        raise Conflict(_shortage(name, needs, site))
    return min(fits, key=lambda h: (spread[h.name], _idle_gpus(h, needs), -_room(h, needs, site), h.name))


def _idle_gpus(host: HostCapacity, needs: NodeNeeds) -> int:
    """Free GPUs a node without GPUs would sit next to (GPUs are the scarcest thing a host has)."""
    if needs.gpus or needs.vgpus:
        return 0
    return len(host.free(host.gpus)) + len(host.free(host.shared))


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
    held = placement.held_on(name, host.name)
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
    if _still_lacks(name, needs, placement.held_on(name, host.name), placement):
        raise Conflict(_shortage(name, needs, site))


def _take_vgpus(name, needs, host, site, placement, take, cluster) -> None:
    profile = site.profiles[needs.profile]
    mine = {t.device.pk for t in placement.held_on(name, host.name) if t.profile is not None}
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


def _still_lacks(name: str, needs: NodeNeeds, held: list[Taken], placement: Placement) -> bool:
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
    """Free devices of nodes the cluster no longer has or needs, or left on a host the node moved from.

    Called once a resize converged: only then are the devices gone from the VMs.
    """
    needs = node_needs(cluster)
    pinned = dict(NodePlacement.objects.filter(cluster=cluster).values_list("node_name", "host_id"))
    rows = DeviceAssignment.objects.filter(cluster=cluster).select_related("device", "profile")
    stale = [row.pk for row in rows if not _still_wanted(row, needs.get(row.node_name), pinned.get(row.node_name))]
    deleted, _ = DeviceAssignment.objects.filter(pk__in=stale).delete()
    unplaced = [name for name in pinned if name not in needs or not needs[name].constrained]
    NodePlacement.objects.filter(cluster=cluster, node_name__in=unplaced).delete()
    return deleted


def _still_wanted(row: DeviceAssignment, needs: NodeNeeds | None, host_id: int | None) -> bool:
    if needs is None or (host_id is not None and row.device.host_id != host_id):
        return False
    if row.profile_id is not None:
        return needs.vgpus > 0 and row.profile.name == needs.profile
    return (needs.gpus if row.device.kind == "gpu" else needs.nics) > 0


def release(cluster: VirtualCluster) -> int:
    """Free every device the cluster holds (on decommission), and forget where its nodes were placed."""
    deleted, _ = DeviceAssignment.objects.filter(cluster=cluster).delete()
    NodePlacement.objects.filter(cluster=cluster).delete()
    return deleted
