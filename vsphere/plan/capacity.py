"""What each node of a cluster needs from its host, and what each host of a site has (PostgreSQL only).

Read in a fixed number of queries whatever the site's size; shared by the offers and refusals
(`capabilities`), placement (`placement.hosts`) and the plan preview.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db.models import F

from tenants.choices import DataPath, GpuMode, Interconnect
from tenants.models import VirtualCluster
from vsphere.choices import DeviceKind, DeviceMode, LinkType
from vsphere.models import DPU, DeviceAssignment, Host, HostFeatures, PCIDevice, PhysicalFunction, VCenter, VFAssignment
from vsphere.models import VGPUProfile as Profile
from vsphere.naming import node_names
from vsphere.plan.specs import HostDeviceInventory

LINK_OF = {Interconnect.SRIOV_IB: LinkType.INFINIBAND, Interconnect.SRIOV_ROCE: LinkType.ETHERNET}


@dataclass(frozen=True)
class NodeNeeds:
    """What one node needs on its host: devices (counted) and host features."""

    vf_link: str = ""  # an SR-IOV VF of this link type
    nics: int = 0  # whole passthrough network devices (DirectPath I/O)
    gpus: int = 0  # whole GPUs (DirectPath I/O)
    vgpus: int = 0  # vGPU instances of `profile`, each on its own GPU
    profile: str = ""
    pvrdma: bool = False
    ens: bool = False
    offload: bool = False

    @property
    def devices(self) -> bool:
        """Whether the node takes counted devices other than a VF."""
        return bool(self.nics or self.gpus or self.vgpus)

    @property
    def constrained(self) -> bool:
        """Whether only some hosts can run this node."""
        return self.devices or self.pvrdma or self.ens or self.offload


def role_needs(cluster: VirtualCluster, role: str) -> NodeNeeds:
    """Needs of a node by role: login, mgr (the manager) or w (a worker)."""
    fabric = role != "login"  # the interconnect joins the manager and the workers
    interconnect = cluster.interconnect
    gpu = role == "w" and cluster.gpu_mode != GpuMode.NONE
    return NodeNeeds(
        vf_link=LINK_OF.get(interconnect, "") if fabric and cluster.uses_sriov else "",
        nics=1 if fabric and interconnect == Interconnect.DIRECTPATH else 0,
        gpus=cluster.gpus_per_worker if gpu and cluster.gpu_mode == GpuMode.PASSTHROUGH else 0,
        vgpus=cluster.gpus_per_worker if gpu and cluster.gpu_mode == GpuMode.VGPU else 0,
        profile=cluster.vgpu_profile if gpu and cluster.gpu_mode == GpuMode.VGPU else "",
        pvrdma=fabric and interconnect == Interconnect.PVRDMA,
        ens=cluster.data_path == DataPath.ENHANCED,
        offload=cluster.data_path == DataPath.DPU,
    )


def node_needs(cluster: VirtualCluster) -> dict[str, NodeNeeds]:
    """Needs of every node of the cluster, by VM name."""
    return {name: role_needs(cluster, role) for role, name in node_names(cluster)}


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


@dataclass
class HostCapacity:
    """One host's devices and features, with what is taken now."""

    pk: int
    name: str
    features: HostFeatures | None = None
    dpus: list[DPU] = field(default_factory=list)
    vfs: dict[str, list[PhysicalFunction]] = field(default_factory=lambda: defaultdict(list))  # link -> PFs
    vf_slots: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))  # pf id -> VF slots taken
    nics: list[PCIDevice] = field(default_factory=list)  # passthrough network devices
    gpus: list[PCIDevice] = field(default_factory=list)  # passthrough GPUs
    shared: list[PCIDevice] = field(default_factory=list)  # vGPU-mode GPUs
    taken: dict[int, list[DeviceAssignment]] = field(default_factory=lambda: defaultdict(list))  # device id -> rows

    # -- features

    @property
    def pvrdma(self) -> bool:
        return bool(self.features and self.features.pvrdma_ready)

    @property
    def ens(self) -> bool:
        return bool(self.features and self.features.ens)

    @property
    def offload(self) -> bool:
        return bool(self.features and self.features.network_offload and self.dpus)

    # -- free capacity

    def free_vfs(self, link: str) -> int:
        return sum(pf.max_vfs - len(self.vf_slots[pf.pk]) for pf in self.vfs.get(link, []))

    def free(self, devices: list[PCIDevice]) -> list[PCIDevice]:
        """Whole devices nobody holds."""
        return [d for d in devices if not self.taken.get(d.pk)]

    def vgpu_slots(self, profile: Profile) -> list[tuple[PCIDevice, int]]:
        """(GPU, free slot) per shared GPU of the profile's type that holds this profile or nothing."""
        out = []
        for gpu in self.shared:
            rows = self.taken.get(gpu.pk, [])
            if gpu.device_vendor_id != profile.device_vendor_id or any(r.profile_id != profile.pk for r in rows):
                continue
            used = {r.slot for r in rows}
            free = [s for s in range(profile.per_gpu) if s not in used]
            if free:
                out.append((gpu, free[0]))
        return out

    def free_instances(self, profile: Profile) -> int:
        """vGPU instances of the profile the host could still start (on GPUs holding it or nothing)."""
        return sum(profile.per_gpu - len(self.taken.get(gpu.pk, [])) for gpu, _slot in self.vgpu_slots(profile))

    def gpus_of_type(self, profile: Profile) -> int:
        return sum(1 for gpu in self.shared if gpu.device_vendor_id == profile.device_vendor_id)

    # -- fit

    def lacks(self, needs: NodeNeeds, profiles: dict[str, Profile], now: bool) -> list[str]:
        """What this host cannot give a node: all it has (now=False) or what is free now (now=True)."""
        missing = [what for what, wanted, has in (
            ("PVRDMA", needs.pvrdma, self.pvrdma), ("the enhanced data path", needs.ens, self.ens),
            ("DPU offload", needs.offload, self.offload),
        ) if wanted and not has]  # fmt: skip
        vfs = self.free_vfs(needs.vf_link) if now else sum(p.max_vfs for p in self.vfs.get(needs.vf_link, []))
        if needs.vf_link and vfs < 1:
            missing.append(f"a {LinkType(needs.vf_link).label} VF")
        if needs.nics and len(self.free(self.nics) if now else self.nics) < needs.nics:
            missing.append(f"{needs.nics} DirectPath NIC(s)")
        if needs.gpus and len(self.free(self.gpus) if now else self.gpus) < needs.gpus:
            missing.append(f"{needs.gpus} whole GPU(s)")
        if needs.vgpus:
            profile = profiles.get(needs.profile)
            has = 0 if profile is None else (len(self.vgpu_slots(profile)) if now else self.gpus_of_type(profile))
            if has < needs.vgpus:
                missing.append(f"{needs.vgpus} × {needs.profile} on separate GPUs")
        return missing


@dataclass
class SiteCapacity:
    """Every host of a vCenter's compute cluster with its capacity, and the vGPU profiles."""

    vcenter: VCenter
    hosts: dict[str, HostCapacity]
    profiles: dict[str, Profile]

    def by_pk(self) -> dict[int, HostCapacity]:
        return {h.pk: h for h in self.hosts.values()}


def site_capacity(vcenter: VCenter, lock: bool = False) -> SiteCapacity:
    """Read the site's inventory and what is taken; `lock` takes row locks on PFs and devices (approvals)."""
    return sites_capacity([vcenter], lock=lock)[0]


def sites_capacity(vcenters, lock: bool = False) -> list[SiteCapacity]:
    """Every given vCenter's site, in the same few queries however many vCenters and hosts there are."""
    sites = {vc.pk: SiteCapacity(vc, {}, {}) for vc in vcenters}
    by_pk = {}
    hosts = Host.objects.filter(vcenter__in=sites, compute_cluster=F("vcenter__compute_cluster"))
    for pk, vcenter_id, name in hosts.order_by("vcenter_id", "name").values_list("pk", "vcenter_id", "name"):
        by_pk[pk] = sites[vcenter_id].hosts[name] = HostCapacity(pk, name)
    pfs = PhysicalFunction.objects.filter(host__in=by_pk).order_by("host__name", "pci_id")
    devices = PCIDevice.objects.filter(host__in=by_pk).select_related("host").order_by("host__name", "pci_id")
    if lock:  # one order everywhere: competing approvals queue here instead of deadlocking
        pfs, devices = pfs.select_for_update(), devices.select_for_update(of=("self",))
    for pf in pfs:
        by_pk[pf.host_id].vfs[pf.link_type].append(pf)
    rows = VFAssignment.objects.filter(pf__host__in=by_pk).values_list("pf_id", "pf__host_id", "slot")
    for pf_id, host_id, slot in rows:
        by_pk[host_id].vf_slots[pf_id].add(slot)
    _add_devices(by_pk, devices)
    for features in HostFeatures.objects.filter(host__in=by_pk):
        by_pk[features.host_id].features = features
    for dpu in DPU.objects.filter(host__in=by_pk):
        by_pk[dpu.host_id].dpus.append(dpu)
    for profile in Profile.objects.filter(vcenter__in=sites):
        sites[profile.vcenter_id].profiles[profile.name] = profile
    return list(sites.values())


def _add_devices(by_pk: dict[int, HostCapacity], devices) -> None:
    for device in devices:
        host = by_pk[device.host_id]
        if device.mode == DeviceMode.VGPU:
            host.shared.append(device)
        elif device.kind == DeviceKind.GPU:
            host.gpus.append(device)
        elif device.kind == DeviceKind.NETWORK:
            host.nics.append(device)
    for row in DeviceAssignment.objects.filter(device__host__in=by_pk).select_related("device", "profile"):
        by_pk[row.device.host_id].taken[row.device_id].append(row)


def preflight_inventory(vcenter: VCenter) -> dict[str, HostDeviceInventory]:
    """What each host offers beyond SR-IOV, for the reconciler's device preflight (same queries as site_capacity)."""
    site = site_capacity(vcenter)
    found = {}
    for host in site.hosts.values():
        kinds = Counter(gpu.device_vendor_id for gpu in host.shared)
        profiles = tuple(
            (p.name, p.device_vendor_id, p.per_gpu) for p in site.profiles.values() if kinds[p.device_vendor_id]
        )
        found[host.name] = HostDeviceInventory(
            host=host.name, passthrough=frozenset(d.pci_id for d in host.nics + host.gpus),
            shared_gpus=tuple(sorted(kinds.items())), profiles=profiles,
            pvrdma_problems=tuple(host.features.pvrdma_problems()) if host.features else ("not discovered yet",),
            ens=host.ens, offload=host.offload,
        )  # fmt: skip
    return found
