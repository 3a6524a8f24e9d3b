"""pyvmomi spec builders: the vSphere objects Enclave sends (the driver sends them, nothing else)."""

from __future__ import annotations

import ipaddress

from pyVmomi import vim

from vsphere.plan.specs import MARKER_KEY, Adapter, NodeIntent, PhysicalFunction
from vsphere.vim.filters import filter_policy

DESCRIPTION_PREFIX = MARKER_KEY + "="

ADAPTER_TYPES = {Adapter.VMXNET3: vim.vm.device.VirtualVmxnet3, Adapter.E1000E: vim.vm.device.VirtualE1000e}


def marker_text(marker: str) -> str:
    """Description text carrying a marker, for objects without extraConfig."""
    return DESCRIPTION_PREFIX + marker


def sriov_nic_spec(pf: PhysicalFunction, pg_key: str, switch_uuid: str, temp_key: int, mac: str = ""):
    """Device spec adding one SR-IOV passthrough adapter on the port group, naming the PF (and its MAC if given)."""
    nic = vim.vm.device.VirtualSriovEthernetCard(key=temp_key)
    if mac:  # an InfiniBand VF's port GUID is made from it (vsphere/plan/vf_mac.py)
        nic.addressType, nic.macAddress = "manual", mac
    nic.backing = vim.vm.device.VirtualEthernetCard.DistributedVirtualPortBackingInfo(
        port=vim.dvs.PortConnection(portgroupKey=pg_key, switchUuid=switch_uuid)
    )
    nic.sriovBacking = vim.vm.device.VirtualSriovEthernetCard.SriovBackingInfo(
        physicalFunctionBacking=vim.vm.device.VirtualPCIPassthrough.DeviceBackingInfo(
            id=pf.pci_id,
            deviceId=format(pf.device_id, "x"),
            vendorId=pf.vendor_id - 0x10000 if pf.vendor_id > 0x7FFF else pf.vendor_id,
            systemId="BYPASS",
            deviceName="",
        )
    )
    nic.allowGuestOSMtuChange = False
    nic.connectable = vim.vm.device.VirtualDevice.ConnectInfo(startConnected=True)
    return vim.vm.device.VirtualDeviceSpec(operation="add", device=nic)


def remove_nic_spec(key: int):
    """Device spec removing the network adapter with that device key (whatever its type)."""
    return vim.vm.device.VirtualDeviceSpec(operation="remove", device=vim.vm.device.VirtualEthernetCard(key=key))


def adapter_spec(adapter: Adapter, temp_key: int, pg_key: str = "", switch_uuid: str = "", network=None,
                 uptv2: bool = False):  # fmt: skip
    """Device spec adding a VMXNET3/E1000e adapter on a distributed port group or a standard network.

    `uptv2`: Uniform Passthrough v2 on a VMXNET3, for a switch a DPU offloads (vSphere 8).
    """
    nic = ADAPTER_TYPES[Adapter(adapter)](key=temp_key)
    if uptv2 and isinstance(nic, vim.vm.device.VirtualVmxnet3):
        nic.uptv2Enabled = True
    if network is not None:
        nic.backing = vim.vm.device.VirtualEthernetCard.NetworkBackingInfo(deviceName=network.name, network=network)
    else:
        nic.backing = vim.vm.device.VirtualEthernetCard.DistributedVirtualPortBackingInfo(
            port=vim.dvs.PortConnection(portgroupKey=pg_key, switchUuid=switch_uuid)
        )
    nic.connectable = vim.vm.device.VirtualDevice.ConnectInfo(startConnected=True, connected=True)
    return vim.vm.device.VirtualDeviceSpec(operation="add", device=nic)


def vm_config_spec(node: NodeIntent, devices: list | None = None, marker: bool = False):
    """VM config: vCPU, memory, reservation, latency sensitivity, optional marker/devices."""
    level = "high" if node.latency_high else "normal"
    spec = vim.vm.ConfigSpec(
        numCPUs=node.cpus,
        memoryMB=node.memory_mb,
        memoryReservationLockedToMax=node.full_reservation,
        latencySensitivity=vim.LatencySensitivity(level=level),
        deviceChange=devices or [],
    )
    if marker:
        # In the clone spec so a real vCenter never shows the VM without its marker.
        spec.extraConfig = [vim.option.OptionValue(key=MARKER_KEY, value=node.marker)]
    return spec


def dvs_create_spec(name: str, marker: str, mtu: int):
    """CreateDVS spec; MTU must be set here (the simulator ignores a later change)."""
    config = vim.dvs.VmwareDistributedVirtualSwitch.ConfigSpec(
        name=name,
        maxMtu=mtu,
        description=marker_text(marker),
        uplinkPortPolicy=vim.DistributedVirtualSwitch.NameArrayUplinkPortPolicy(uplinkPortName=["uplink1"]),
    )
    return vim.DistributedVirtualSwitch.CreateSpec(configSpec=config)


def dvs_hosts_spec(config_version: str, hosts: list, pnic: str):
    """Reconfigure spec adding hosts with the PF's vmnic as uplink."""
    members = [
        vim.dvs.HostMember.ConfigSpec(
            operation="add",
            host=host,
            backing=vim.dvs.HostMember.PnicBacking(pnicSpec=[vim.dvs.HostMember.PnicSpec(pnicDevice=pnic)]),
        )
        for host in hosts
    ]
    return vim.dvs.VmwareDistributedVirtualSwitch.ConfigSpec(configVersion=config_version, host=members)


def dvs_mtu_spec(config_version: str, mtu: int):
    """Reconfigure spec changing the switch MTU."""
    return vim.dvs.VmwareDistributedVirtualSwitch.ConfigSpec(configVersion=config_version, maxMtu=mtu)


def portgroup_spec(name: str, marker: str, vlan: int, ports: int, version: str = "", rules=None):
    """Early-binding port group on one VLAN, auto-expanding, with its traffic filter (if managed).

    A reconfigure restates the whole default port config: vCenter (and the simulator) replace it.
    """
    return vim.dvs.DistributedVirtualPortgroup.ConfigSpec(
        name=name,
        description=marker_text(marker),
        type="earlyBinding",
        numPorts=ports,
        autoExpand=True,
        configVersion=version or None,
        defaultPortConfig=vim.dvs.VmwareDistributedVirtualSwitch.VmwarePortConfigPolicy(
            vlan=vim.dvs.VmwareDistributedVirtualSwitch.VlanIdSpec(vlanId=vlan, inherited=False),
            filterPolicy=filter_policy(rules) if rules is not None else None,
        ),
    )


def _ip_settings(ip: str, guest, gateway: bool):
    """One adapter's fixed address (IPv4 or IPv6) with the segment's gateway on the primary only."""
    if not ip:  # the management NIC, or a preview before approval: addressed by DHCP
        return vim.vm.customization.IPSettings(ip=vim.vm.customization.DhcpIpGenerator())
    net = ipaddress.ip_interface(f"{ip}/{guest.prefix_length}")
    gateways = [guest.gateway] if gateway and guest.gateway else []
    if net.version == 6:
        v6 = vim.vm.customization.IPSettings.IpV6AddressSpec(
            ip=[vim.vm.customization.FixedIpV6(ipAddress=ip, subnetMask=guest.prefix_length)], gateway=gateways
        )
        return vim.vm.customization.IPSettings(ip=vim.vm.customization.UnknownIpGenerator(), ipV6Spec=v6)
    return vim.vm.customization.IPSettings(
        ip=vim.vm.customization.FixedIp(ipAddress=ip),
        subnetMask=str(net.netmask),
        gateway=gateways,
        dnsServerList=list(guest.dns_servers),
    )


def customization_spec(host_name: str, guest, nic_ips: list[tuple[str, bool]]):
    """Linux guest identity and one adapter mapping per NIC, in the VM's NIC order.

    `nic_ips`: (fixed address or "" for DHCP, whether it carries the default gateway) per NIC.
    """
    identity = vim.vm.customization.LinuxPrep(
        hostName=vim.vm.customization.FixedName(name=host_name), domain=guest.domain, hwClockUTC=True
    )
    return vim.vm.customization.Specification(
        identity=identity,
        globalIPSettings=vim.vm.customization.GlobalIPSettings(
            dnsServerList=list(guest.dns_servers), dnsSuffixList=[guest.domain] if guest.domain else []
        ),
        nicSettingMap=[vim.vm.customization.AdapterMapping(adapter=_ip_settings(ip, guest, gw)) for ip, gw in nic_ips],
    )
