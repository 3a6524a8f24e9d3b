"""Plain data shared by the driver, the planner and the reconciler (no pyvmomi here)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from netpolicy.compiler.vds import VdsRule
from vsphere.device_specs import NodeDevices, ObservedDevices

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
