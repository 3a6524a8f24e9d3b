"""The kinds of vSphere change a plan is made of, and one planned change (shared by diff and device_diff)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class ChangeKind(enum.StrEnum):
    """One kind of vSphere change, in the order the reconciler applies them."""

    BLOCKED = "blocked"  # an object of ours by name carries a foreign marker
    CREATE_DVS = "create_dvs"
    ADD_DVS_HOSTS = "add_dvs_hosts"
    SET_DVS_MTU = "set_dvs_mtu"
    CREATE_PORTGROUP = "create_portgroup"
    SET_PORTGROUP_VLAN = "set_portgroup_vlan"
    SET_PORTGROUP_FILTER = "set_portgroup_filter"  # the tenant policy compiled for the switch (netpolicy vds)
    CLONE_VM = "clone_vm"
    POWER_OFF = "power_off"
    RELOCATE_VM = "relocate_vm"  # back to the host its devices and features are on (cold)
    RECONFIGURE_VM = "reconfigure_vm"
    REMOVE_NIC = "remove_nic"  # a NIC on a network that is not the tenant's (or one too many)
    REMOVE_SRIOV_NIC = "remove_sriov_nic"
    REMOVE_DEVICE = "remove_device"  # a DirectPath device or vGPU the node no longer has (or on the old host)
    REMOVE_PVRDMA_NIC = "remove_pvrdma_nic"
    ADD_NIC = "add_nic"  # the primary adapter on the tenant's port group, or the management NIC
    ADD_SRIOV_NIC = "add_sriov_nic"
    ADD_PVRDMA_NIC = "add_pvrdma_nic"  # a VirtualVmxnet3Vrdma on the tenant's port group
    ADD_PASSTHROUGH = "add_passthrough"  # a whole GPU or NIC (DirectPath I/O)
    ADD_VGPU = "add_vgpu"  # one NVIDIA vGPU of a profile
    SET_UPTV2 = "set_uptv2"  # UPTv2 on the primary VMXNET3 (DPU offload)
    CUSTOMIZE_GUEST = "customize_guest"  # host name and addresses again: NICs changed or the guest drifted
    POWER_ON = "power_on"
    DESTROY_VM = "destroy_vm"
    REMOVE_PORTGROUP = "remove_portgroup"


@dataclass(frozen=True)
class Change:
    """A single planned change, readable by an admin in the plan preview."""

    kind: ChangeKind
    target: str
    detail: str = ""
    data: dict = field(default_factory=dict, compare=False, hash=False)

    def __str__(self) -> str:
        return f"{self.kind.value} {self.target}" + (f": {self.detail}" if self.detail else "")
