"""Plain data shared by the driver, the planner and the reconciler: VMs, switches and devices (no pyvmomi)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from netpolicy.compiler.vds import VdsRule

GPU_CLASS = 0x03  # PCI base class: display controller
NETWORK_CLASS = 0x02


@dataclass(frozen=True)
class DiscoveredDevice:
    """A passthrough-enabled device or a GPU in vGPU mode, as vCenter reports it."""

    pci_id: str
    kind: str  # vsphere.choices.DeviceKind
    mode: str  # vsphere.choices.DeviceMode
    vendor_id: int
    device_id: int
    vendor_name: str = ""
    device_name: str = ""
    memory_gib: int = 0
    system_id: str = ""


@dataclass(frozen=True)
class DiscoveredProfile:
    """A vGPU profile a host offers, and how many of it one GPU of its type holds (same-size mode)."""

    name: str
    device_vendor_id: int
    gpu_model: str
    framebuffer_gib: int
    per_gpu: int
    profile_class: str = ""


@dataclass(frozen=True)
class DiscoveredDPU:
    dpu_id: str
    pnic: str
    model: str = ""


@dataclass(frozen=True)
class DiscoveredHost:
    """Everything discovery learns about one host's devices and features."""

    name: str
    devices: tuple[DiscoveredDevice, ...] = ()
    profiles: tuple[DiscoveredProfile, ...] = ()
    dpus: tuple[DiscoveredDPU, ...] = ()
    pvrdma_vmknic: str = ""
    pvrdma_vmknic_exists: bool = False
    pvrdma_firewall: bool = False
    ens: bool = False
    network_offload: bool = False


@dataclass(frozen=True)
class PassthroughDevice:
    """A whole device for one VM (DirectPath I/O): what the device backing must name."""

    pci_id: str
    vendor_id: int
    device_id: int
    system_id: str
    label: str = ""  # for the plan preview: "GPU NVIDIA A100-PCIE-40GB"


@dataclass(frozen=True)
class ObservedDevices:
    """A VM's devices beyond SR-IOV VFs: DirectPath devices, vGPUs, PVRDMA adapters, UPTv2 on VMXNET3."""

    passthrough: tuple[tuple[int, str], ...] = ()  # (device key, PCI id)
    vgpus: tuple[tuple[int, str], ...] = ()  # (device key, profile)
    pvrdma: tuple[tuple[int, str], ...] = ()  # (device key, port group key)
    uptv2: tuple[tuple[int, bool], ...] = ()  # (device key of each plain VMXNET3, uptv2Enabled)


@dataclass(frozen=True)
class NodeDevices:
    """What one VM should have beyond SR-IOV VFs, on its host."""

    passthrough: tuple[PassthroughDevice, ...] = ()
    vgpus: tuple[str, ...] = ()  # one profile name per vGPU
    pvrdma: bool = False  # a PVRDMA adapter on the tenant's port group
    uptv2: bool = False  # UPTv2 on the primary VMXNET3 (DPU offload)
    ens: bool = False  # the host's switch must run the enhanced data path

    @property
    def needs_reservation(self) -> bool:
        """DirectPath I/O, vGPU and PVRDMA all want every byte of guest memory reserved."""
        return bool(self.passthrough or self.vgpus or self.pvrdma)

    @property
    def any(self) -> bool:
        """Whether the VM needs anything beyond plain NICs and VFs (and so a host that has it)."""
        return bool(self.passthrough or self.vgpus or self.pvrdma or self.uptv2 or self.ens)

    def describe(self) -> list[str]:
        """Each device and feature in words, for the plan preview."""
        out = [d.label or f"PCI device {d.pci_id}" for d in self.passthrough]
        out += [f"vGPU {profile}" for profile in self.vgpus]
        flags = (("a PVRDMA adapter", self.pvrdma), ("UPTv2 (DPU offload)", self.uptv2), ("ENS", self.ens))
        return out + [what for what, wanted in flags if wanted]


@dataclass(frozen=True)
class HostDeviceInventory:
    """What one host offers VMs beyond SR-IOV, as the database knows it (for preflight)."""

    host: str
    passthrough: frozenset[str] = frozenset()  # PCI ids enabled for DirectPath I/O
    shared_gpus: tuple[tuple[int, int], ...] = ()  # (GPU type, GPUs in vGPU mode)
    profiles: tuple[tuple[str, int, int], ...] = ()  # (profile, GPU type, instances per GPU)
    pvrdma_problems: tuple[str, ...] = ("not discovered",)
    ens: bool = False
    offload: bool = False

    def profile(self, name: str) -> tuple[int, int] | None:
        """(GPU type, instances per GPU) of a profile this host's GPUs can run."""
        return next(((kind, per) for n, kind, per in self.profiles if n == name), None)

    def gpus_of(self, kind: int) -> int:
        return dict(self.shared_gpus).get(kind, 0)


MARKER_KEY = "enclave.id"
HPC_MTU = 9000
PVRDMA_KIND = "pvrdma"  # ObservedNic.kind of a VirtualVmxnet3Vrdma


class PowerState(enum.StrEnum):
    """VM power states as vSphere names them."""

    ON = "poweredOn"
    OFF = "poweredOff"
    SUSPENDED = "suspended"


class Adapter(enum.StrEnum):
    """Virtual NIC types Enclave gives a VM (SR-IOV VFs are added per PF, not chosen here)."""

    VMXNET3 = "vmxnet3"
    E1000E = "e1000e"


class NicRole(enum.StrEnum):
    """What a VM NIC is for: the primary adapter, VFs and the PVRDMA adapter sit on the tenant's port group."""

    PRIMARY = "primary"
    SRIOV = "sriov"
    PVRDMA = "pvrdma"
    MANAGEMENT = "management"


class LinkType(enum.StrEnum):
    """Fabric a physical function is cabled to."""

    INFINIBAND = "infiniband"
    ETHERNET = "ethernet"


@dataclass(frozen=True)
class PhysicalFunction:
    """An SR-IOV physical function of one host, as discovered or entered by an admin."""

    host: str
    pci_id: str
    pnic: str
    num_vfs: int  # VFs enabled through the driver (max_vfs for this port)
    max_vfs: int = 0  # firmware NUM_OF_VFS, 0 if unknown
    vendor_id: int = 0x15B3  # PCI ids vSphere wants in the passthrough backing
    device_id: int = 0x1017


@dataclass(frozen=True)
class NodeIntent:
    """One VM the cluster should have."""

    name: str
    marker: str
    host: str
    cpus: int
    memory_mb: int
    sriov_pfs: tuple[str, ...] = ()  # one VF per entry, PF PCI ids on `host`
    adapter: Adapter = Adapter.VMXNET3  # the primary adapter, on the tenant's port group
    host_name: str = ""  # the guest's host name, set by customization ("" before approval)
    primary_ip: str = ""  # fixed address of the primary adapter ("" before approval)
    sriov_ips: tuple[str, ...] = ()  # fixed address of each VF, in sriov_pfs order
    sriov_macs: tuple[str, ...] = ()  # each VF adapter's MAC, in sriov_pfs order ("": vSphere picks one)
    latency_high: bool = False
    power_on: bool = True
    reserve_memory: bool | None = None  # None: reserve all memory exactly when SR-IOV or a device needs it
    devices: NodeDevices = NodeDevices()  # DirectPath devices, vGPUs, PVRDMA, UPTv2, ENS
    pvrdma_ip: str = ""  # fixed address of the PVRDMA adapter ("" before approval)
    pinned: bool = False  # placed on `host` for its devices or features: moved back there if it drifts

    @property
    def full_reservation(self) -> bool:
        """Whether all guest memory must be reserved (SR-IOV, DirectPath I/O, vGPU and PVRDMA need it)."""
        if self.reserve_memory is None:
            return bool(self.sriov_pfs) or self.devices.needs_reservation
        return self.reserve_memory


@dataclass(frozen=True)
class GuestNetwork:
    """The tenant segment's settings every VM's guest gets: prefix, gateway, resolvers, domain."""

    prefix_length: int
    gateway: str
    dns_servers: tuple[str, ...] = ()
    domain: str = ""


@dataclass(frozen=True)
class ClusterIntent:
    """What vCenter should hold for one Enclave virtual cluster."""

    datacenter: str
    compute_cluster: str
    template: str
    dvs_name: str
    dvs_marker: str
    uplink_pnic: str
    portgroup: str
    portgroup_marker: str
    vlan: int
    hosts: tuple[str, ...]
    portgroup_external: bool = False  # NSX's port group: attach to it, never create, change or remove it
    nodes: tuple[NodeIntent, ...] = ()
    marker: str = ""  # the cluster's Enclave id; node markers start with it
    datastore: str | None = None
    mtu: int = HPC_MTU
    decommission: bool = False  # remove every node, then the port group when unused
    # The one network besides the tenant's a VM may have a NIC on, declared by the site ("" none).
    management_network: str = ""
    guest: GuestNetwork | None = None  # what guest customization gives every VM (None: no customization)
    filter_rules: tuple[VdsRule, ...] | None = None  # the port group's traffic filter (None: leave it alone)


@dataclass(frozen=True)
class ObservedNic:
    """A virtual NIC found on a VM: its type, the network it is on and, for a VF, its PF."""

    key: int
    pf: str
    portgroup_key: str
    switch_uuid: str
    kind: str = "sriov"  # "sriov", "pvrdma", an Adapter value, or the device's vSphere type name
    network: str = ""  # port group or standard network name
    mac: str = ""  # the adapter's MAC address, lower case (a VF's InfiniBand port GUID follows it)

    @property
    def is_sriov(self) -> bool:
        return self.kind == "sriov"

    @property
    def is_pvrdma(self) -> bool:
        return self.kind == PVRDMA_KIND


@dataclass(frozen=True)
class ObservedVM:
    """What vCenter reports about one VM."""

    name: str
    moid: str
    marker: str
    host: str
    cpus: int
    memory_mb: int
    reservation_locked: bool
    latency_high: bool
    power: PowerState
    nics: tuple[ObservedNic, ...] = ()
    template: bool = False
    guest_host_name: str = ""
    guest_ips: tuple[tuple[int, tuple[str, ...]], ...] = ()  # (NIC device key, addresses the guest reports)
    customization_pending: bool = False
    devices: ObservedDevices = ObservedDevices()  # DirectPath devices, vGPUs, PVRDMA adapters, UPTv2 flags

    def ips_of(self, key: int) -> tuple[str, ...]:
        """Addresses the guest reports on the NIC with that device key."""
        return next((ips for nic_key, ips in self.guest_ips if nic_key == key), ())

    @property
    def sriov_nics(self) -> tuple[ObservedNic, ...]:
        """The VM's SR-IOV passthrough NICs."""
        return tuple(nic for nic in self.nics if nic.is_sriov)


@dataclass(frozen=True)
class ObservedDVS:
    """What vCenter reports about a distributed switch."""

    name: str
    moid: str
    marker: str
    uuid: str
    mtu: int
    hosts: tuple[str, ...]


@dataclass(frozen=True)
class ObservedPortgroup:
    """What vCenter reports about a distributed port group."""

    name: str
    moid: str
    key: str
    marker: str
    vlan: int | None
    switch_uuid: str
    filter_rules: tuple[VdsRule, ...] | None = None  # the enabled traffic ruleset, None if there is none
    num_ports: int = 0


@dataclass
class Observed:
    """A read-only snapshot of the objects one cluster intent cares about."""

    vms: dict[str, ObservedVM] = field(default_factory=dict)
    dvs: ObservedDVS | None = None
    portgroup: ObservedPortgroup | None = None
    pfs: dict[str, dict[str, PhysicalFunction]] = field(default_factory=dict)  # host -> pci -> PF
    # (host, pf) -> name of the VM behind each SR-IOV NIC on that PF, across the datacenter
    vf_users: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    portgroup_users: list[str] = field(default_factory=list)  # VMs with a NIC on the port group
    template_nics: tuple[ObservedNic, ...] = ()  # the template's NICs, removed from every clone

    def vm(self, name: str) -> ObservedVM | None:
        """Return the observed VM of that name, if any."""
        return self.vms.get(name)
