from enum import StrEnum


class PlanChangeKindEnum(StrEnum):
    ADD_DVS_HOSTS = "add_dvs_hosts"
    ADD_NIC = "add_nic"
    ADD_PASSTHROUGH = "add_passthrough"
    ADD_PVRDMA_NIC = "add_pvrdma_nic"
    ADD_SRIOV_NIC = "add_sriov_nic"
    ADD_VGPU = "add_vgpu"
    BLOCKED = "blocked"
    CLONE_VM = "clone_vm"
    CREATE_DVS = "create_dvs"
    CREATE_PORTGROUP = "create_portgroup"
    CUSTOMIZE_GUEST = "customize_guest"
    DESTROY_VM = "destroy_vm"
    POWER_OFF = "power_off"
    POWER_ON = "power_on"
    RECONFIGURE_VM = "reconfigure_vm"
    RELOCATE_VM = "relocate_vm"
    REMOVE_DEVICE = "remove_device"
    REMOVE_NIC = "remove_nic"
    REMOVE_PORTGROUP = "remove_portgroup"
    REMOVE_PVRDMA_NIC = "remove_pvrdma_nic"
    REMOVE_SRIOV_NIC = "remove_sriov_nic"
    SET_DVS_MTU = "set_dvs_mtu"
    SET_PORTGROUP_FILTER = "set_portgroup_filter"
    SET_PORTGROUP_VLAN = "set_portgroup_vlan"
    SET_UPTV2 = "set_uptv2"

    def __str__(self) -> str:
        return str(self.value)
