"""pyvmomi for a VM's adapters and devices: discovery reads, device specs sent, devices read back from VMs.

Discovery reads only what real vSphere reports: QueryConfigTarget (pciPassthrough, vgpuDeviceInfo,
vgpuProfileInfo), HostGraphicsManager.graphicsInfo, the host's physical NICs (dpuId), its proxy
switches (ensEnabled, networkOffloadingEnabled), VMkernel adapters, the advanced option
Net.PVRDMAVmknic and the "pvrdma" firewall ruleset.
"""

from __future__ import annotations

from pyVmomi import vim, vmodl

from vsphere.choices import DeviceKind, DeviceMode
from vsphere.errors import PermanentError, PreflightError
from vsphere.plan import preflight
from vsphere.plan.specs import (
    GPU_CLASS,
    NETWORK_CLASS,
    DiscoveredDevice,
    DiscoveredDPU,
    DiscoveredHost,
    DiscoveredProfile,
    ObservedDevices,
    PassthroughDevice,
    PhysicalFunction,
    PowerState,
)
from vsphere.vim.faults import guarded
from vsphere.vim.specs import adapter_spec, remove_nic_spec, sriov_nic_spec

HOST_DEVICE_PATHS = [
    "name",
    "config.network.pnic",
    "config.network.proxySwitch",
    "config.network.vnic",
    "config.firewall",
    "configManager.graphicsManager",
    "configManager.advancedOption",
    "hardware.pciDevice",
    "hardware.systemInfo.uuid",
]
PVRDMA_OPTION = "Net.PVRDMAVmknic"
PVRDMA_RULESET = "pvrdma"
GRAPHICS_TYPES = {"direct": DeviceMode.PASSTHROUGH, "sharedDirect": DeviceMode.VGPU}
VRDMA_PROTOCOL = "rocev2"


def u16(value: int) -> int:
    """vSphere sends 16-bit PCI ids as signed shorts."""
    return value & 0xFFFF


# ---------------------------------------------------------------- discovery


def read_hosts(driver, snap, cluster: str, switch: str) -> dict[str, DiscoveredHost]:
    """Devices and features of every host of the compute cluster."""
    names = snap.clusters.get(cluster, (None, []))[1]
    mors = [snap.hosts[name] for name in names if name in snap.hosts]
    if not mors:
        return {}
    props = _retrieve(driver, mors, vim.HostSystem, HOST_DEVICE_PATHS)
    graphics = _graphics(driver, [p.get("configManager.graphicsManager") for p in props.values()])
    browser = snap.clusters[cluster][0].owner.environmentBrowser
    found = {}
    for mor in mors:
        host = props[mor._moId]
        try:
            target = browser.QueryConfigTarget(host=mor)
        except vmodl.MethodFault as exc:
            raise PermanentError(f"query config target of {host['name']}: {exc.msg}", fault="ConfigTarget") from exc
        found[host["name"]] = _host(host, target, graphics.get(_moid(host.get("configManager.graphicsManager")), []),
                                    _pvrdma_vmknic(host.get("configManager.advancedOption")), switch)  # fmt: skip
    return found


def _moid(mor) -> str:
    return mor._moId if mor is not None else ""


def _retrieve(driver, mors: list, kind, paths: list[str]) -> dict[str, dict]:
    pc = vmodl.query.PropertyCollector
    spec = pc.FilterSpec(
        objectSet=[pc.ObjectSpec(obj=m) for m in mors], propSet=[pc.PropertySpec(type=kind, pathSet=paths)]
    )
    collector = driver.content.propertyCollector
    result = collector.RetrievePropertiesEx([spec], pc.RetrieveOptions())
    objects = list(result.objects) if result else []
    while result is not None and result.token:
        result = collector.ContinueRetrievePropertiesEx(result.token)
        objects += list(result.objects)
    return {o.obj._moId: {p.name: p.val for p in o.propSet or []} for o in objects}


def _graphics(driver, managers: list) -> dict[str, list]:
    managers = [m for m in managers if m is not None]
    if not managers:
        return {}
    found = _retrieve(driver, managers, vim.host.GraphicsManager, ["graphicsInfo"])
    return {moid: list(props.get("graphicsInfo") or []) for moid, props in found.items()}


def _pvrdma_vmknic(option_manager) -> str:
    if option_manager is None:
        return ""
    try:
        options = option_manager.QueryOptions(PVRDMA_OPTION)
    except vim.fault.InvalidName:
        return ""  # the host never had the option set
    return next((str(o.value or "") for o in options if o.key == PVRDMA_OPTION), "")


def _host(props: dict, target, graphics: list, vmknic: str, switch: str) -> DiscoveredHost:
    pci = {dev.id: dev for dev in props.get("hardware.pciDevice") or []}
    system = props.get("hardware.systemInfo.uuid") or ""
    proxies = [p for p in props.get("config.network.proxySwitch") or [] if p.dvsName == switch]
    rulesets = getattr(props.get("config.firewall"), "ruleset", None) or []
    vnics = {v.device for v in props.get("config.network.vnic") or []}
    return DiscoveredHost(
        name=props["name"],
        devices=tuple(_gpus(graphics, pci, system)) + tuple(_passthrough(target, pci, system)),
        profiles=tuple(_profiles(target)),
        dpus=tuple(
            DiscoveredDPU(nic.dpuId, nic.device, getattr(pci.get(nic.pci), "deviceName", "") or "")
            for nic in props.get("config.network.pnic") or []
            if getattr(nic, "dpuId", None)
        ),  # fmt: skip
        pvrdma_vmknic=vmknic,
        pvrdma_vmknic_exists=bool(vmknic) and vmknic in vnics,
        pvrdma_firewall=any(r.key == PVRDMA_RULESET and r.enabled for r in rulesets),
        ens=any(p.ensEnabled for p in proxies),
        network_offload=any(p.networkOffloadingEnabled for p in proxies),
    )


def _gpus(graphics: list, pci: dict, system: str):
    for info in graphics:
        mode = GRAPHICS_TYPES.get(info.graphicsType)
        dev = pci.get(info.pciId)
        if mode is None or dev is None:
            continue  # basic or shared (vSGA) graphics: nothing Enclave hands out
        yield DiscoveredDevice(
            pci_id=info.pciId, kind=DeviceKind.GPU, mode=mode, vendor_id=u16(dev.vendorId),
            device_id=u16(dev.deviceId), vendor_name=dev.vendorName or "", device_name=info.deviceName or "",
            memory_gib=(info.memorySizeInKB or 0) // (1024 * 1024), system_id=system,
        )  # fmt: skip


def _passthrough(target, pci: dict, system: str):
    """Passthrough-enabled devices that are not GPUs (those come from the graphics manager)."""
    for info in target.pciPassthrough or []:
        dev = info.pciDevice
        base_class = (u16(dev.classId) >> 8) & 0xFF
        if base_class == GPU_CLASS or isinstance(info, vim.vm.SriovInfo):
            continue
        kind = DeviceKind.NETWORK if base_class == NETWORK_CLASS else DeviceKind.OTHER
        yield DiscoveredDevice(
            pci_id=dev.id, kind=kind, mode=DeviceMode.PASSTHROUGH, vendor_id=u16(dev.vendorId),
            device_id=u16(dev.deviceId), vendor_name=dev.vendorName or "", device_name=dev.deviceName or "",
            system_id=info.systemId or system,
        )  # fmt: skip


def _profiles(target):
    """vGPU profiles with the instances one GPU of their type holds (GPU memory / profile memory)."""
    memory = {d.deviceVendorId: (d.maxFbSizeInGib, d.deviceName) for d in target.vgpuDeviceInfo or []}
    for p in target.vgpuProfileInfo or []:
        gpu_memory, model = memory.get(p.deviceVendorId, (0, ""))
        if not p.fbSizeInGib or gpu_memory < p.fbSizeInGib:
            continue
        yield DiscoveredProfile(
            name=p.profileName, device_vendor_id=p.deviceVendorId, gpu_model=model,
            framebuffer_gib=p.fbSizeInGib, per_gpu=gpu_memory // p.fbSizeInGib, profile_class=p.profileClass or "",
        )  # fmt: skip


# ---------------------------------------------------------------- device specs


def passthrough_spec(device: PassthroughDevice, temp_key: int):
    """Add a whole device by PCI id (DirectPath I/O): the id, device and vendor ids and system id vSphere wants."""
    vendor = device.vendor_id - 0x10000 if device.vendor_id > 0x7FFF else device.vendor_id
    backing = vim.vm.device.VirtualPCIPassthrough.DeviceBackingInfo(
        id=device.pci_id, deviceId=format(device.device_id, "x"), vendorId=vendor, systemId=device.system_id,
        deviceName="",
    )  # fmt: skip
    dev = vim.vm.device.VirtualPCIPassthrough(key=temp_key, backing=backing)
    return vim.vm.device.VirtualDeviceSpec(operation="add", device=dev)


def vgpu_spec(profile: str, temp_key: int):
    """Add one NVIDIA vGPU of the profile (vSphere picks the physical GPU at power-on)."""
    backing = vim.vm.device.VirtualPCIPassthrough.VmiopBackingInfo(vgpu=profile)
    dev = vim.vm.device.VirtualPCIPassthrough(key=temp_key, backing=backing)
    return vim.vm.device.VirtualDeviceSpec(operation="add", device=dev)


def pvrdma_spec(pg_key: str, switch_uuid: str, temp_key: int):
    """Add a PVRDMA adapter (VirtualVmxnet3Vrdma, RoCE v2) on a distributed port group."""
    nic = vim.vm.device.VirtualVmxnet3Vrdma(key=temp_key, deviceProtocol=VRDMA_PROTOCOL)
    nic.backing = vim.vm.device.VirtualEthernetCard.DistributedVirtualPortBackingInfo(
        port=vim.dvs.PortConnection(portgroupKey=pg_key, switchUuid=switch_uuid)
    )
    nic.connectable = vim.vm.device.VirtualDevice.ConnectInfo(startConnected=True, connected=True)
    return vim.vm.device.VirtualDeviceSpec(operation="add", device=nic)


def remove_device_spec(key: int):
    """Remove a device by key (a PCI passthrough device or vGPU)."""
    return vim.vm.device.VirtualDeviceSpec(operation="remove", device=vim.vm.device.VirtualPCIPassthrough(key=key))


def uptv2_edit_spec(device, enabled: bool):
    """Turn UPTv2 on or off on an existing VMXNET3 (the device object read from the VM)."""
    device.uptv2Enabled = enabled
    return vim.vm.device.VirtualDeviceSpec(operation="edit", device=device)


# ---------------------------------------------------------------- read back


def observed_devices(devices) -> ObservedDevices:
    """The VM's DirectPath devices, vGPUs, PVRDMA adapters and the UPTv2 flag of its plain VMXNET3s."""
    passthrough, vgpus, pvrdma, uptv2 = [], [], [], []
    for dev in devices or []:
        if isinstance(dev, vim.vm.device.VirtualPCIPassthrough):
            backing = dev.backing
            if isinstance(backing, vim.vm.device.VirtualPCIPassthrough.VmiopBackingInfo):
                vgpus.append((dev.key, backing.vgpu or ""))
            elif isinstance(backing, vim.vm.device.VirtualPCIPassthrough.DeviceBackingInfo):
                passthrough.append((dev.key, backing.id or ""))
        elif isinstance(dev, vim.vm.device.VirtualVmxnet3Vrdma):
            port = getattr(dev.backing, "port", None)
            pvrdma.append((dev.key, getattr(port, "portgroupKey", "") or ""))
        elif isinstance(dev, vim.vm.device.VirtualVmxnet3):
            uptv2.append((dev.key, bool(dev.uptv2Enabled)))
    return ObservedDevices(tuple(passthrough), tuple(vgpus), tuple(pvrdma), tuple(uptv2))


# ---------------------------------------------------------------- the driver's part


class Devices:
    """A VM's adapters and devices: change specs for the batch path, SR-IOV verbs, what a host offers."""

    def __init__(self, driver):
        self._driver = driver

    @staticmethod
    def change_spec(devices: list):
        """Config spec with only device changes."""
        return vim.vm.ConfigSpec(deviceChange=devices)

    @staticmethod
    def sriov_nic(pf: PhysicalFunction, pg_key: str, switch_uuid: str, temp_key: int, mac: str = ""):
        """Device change adding one SR-IOV adapter (with that MAC, if given)."""
        return sriov_nic_spec(pf, pg_key, switch_uuid, temp_key, mac)

    @staticmethod
    def remove_nic(key: int):
        """Device change removing one network adapter."""
        return remove_nic_spec(key)

    @staticmethod
    def adapter(adapter, temp_key: int, pg_key: str, switch_uuid: str, uptv2: bool = False):
        """Device change adding a VMXNET3/E1000e adapter on a distributed port group (UPTv2 on a VMXNET3)."""
        return adapter_spec(adapter, temp_key, pg_key, switch_uuid, uptv2=uptv2)

    @staticmethod
    def network_adapter(snap, adapter, temp_key: int, network: str):
        """Device change adding an adapter on a named network (a standard network or a port group)."""
        if network in snap.portgroups:
            pg = snap.portgroups[network][0]
            return adapter_spec(adapter, temp_key, pg.key, pg.switch_uuid)
        if network not in snap.networks:
            raise PermanentError(f"network {network!r} not found", fault="NotFound")
        return adapter_spec(adapter, temp_key, network=snap.networks[network])

    @staticmethod
    def passthrough(device: PassthroughDevice, temp_key: int):
        """Device change adding a whole device (DirectPath I/O)."""
        return passthrough_spec(device, temp_key)

    @staticmethod
    def vgpu(profile: str, temp_key: int):
        """Device change adding one vGPU of the profile."""
        return vgpu_spec(profile, temp_key)

    @staticmethod
    def pvrdma(pg_key: str, switch_uuid: str, temp_key: int):
        """Device change adding a PVRDMA adapter on the tenant's port group."""
        return pvrdma_spec(pg_key, switch_uuid, temp_key)

    @staticmethod
    def remove(key: int):
        """Device change removing a DirectPath device or vGPU."""
        return remove_device_spec(key)

    @staticmethod
    def uptv2_edit(vm, key: int, enabled: bool, name: str):
        """Device change turning UPTv2 on or off on the VM's VMXNET3 with that key (read now: edits restate it)."""
        with guarded(f"read the adapters of {name}"):
            found = next((d for d in vm.config.hardware.device or [] if d.key == key), None)
        if not isinstance(found, vim.vm.device.VirtualVmxnet3):
            raise PermanentError(f"{name}: no VMXNET3 with device key {key}", fault="NotFound")
        return uptv2_edit_spec(found, enabled)

    def ensure_sriov_nic(self, datacenter, vm_name, marker, portgroup, pf_id, inventory=None) -> bool:
        """One SR-IOV adapter on the port group naming the PF; only while powered off."""
        drv = self._driver
        snap = drv.snapshot(datacenter)
        vm, vm_mor = snap.owned_vm(vm_name, marker)
        if portgroup not in snap.portgroups:
            raise PermanentError(f"port group {portgroup!r} not found", fault="NotFound")
        pg = snap.portgroups[portgroup][0]
        if any(nic.pf == pf_id and nic.portgroup_key == pg.key for nic in vm.sriov_nics):
            return False
        inventory = inventory if inventory is not None else snap.pfs
        in_use = sum(
            1 for other, _ in snap.vms.values() if other.host == vm.host for nic in other.sriov_nics if nic.pf == pf_id
        )
        preflight.check_pf(vm.host, pf_id, inventory, in_use)
        preflight.check_sriov_add(vm.name, vm.power, vm.reservation_locked)
        spec = self.change_spec([self.sriov_nic(inventory[vm.host][pf_id], pg.key, pg.switch_uuid, -100)])
        drv.wait(drv.vms.start_reconfigure(vm_mor, spec, vm_name), f"add SR-IOV NIC to {vm_name}")
        return True

    def remove_sriov_nic(self, datacenter, vm_name, marker, pf_id) -> bool:
        """Remove the VM's SR-IOV adapters on that PF; only while powered off."""
        drv = self._driver
        vm, vm_mor = drv.snapshot(datacenter).owned_vm(vm_name, marker)
        keys = [nic.key for nic in vm.sriov_nics if nic.pf == pf_id]
        if not keys:
            return False
        if vm.power != PowerState.OFF:
            raise PreflightError([f"{vm_name}: power the VM off before removing SR-IOV NICs"])
        spec = self.change_spec([self.remove_nic(key) for key in keys])
        drv.wait(drv.vms.start_reconfigure(vm_mor, spec, vm_name), f"remove NIC from {vm_name}")
        return True

    def config_target_sriov(self, datacenter: str, cluster: str, host: str) -> list[dict]:
        """SR-IOV PFs a host offers to VMs, as QueryConfigTarget reports them."""
        snap = self._driver.snapshot(datacenter)
        with guarded(f"query config target of {host}"):
            cluster_mor = snap.clusters[cluster][0].owner
            target = cluster_mor.environmentBrowser.QueryConfigTarget(host=snap.hosts[host])
        return [
            {"pci_id": info.pciDevice.id, "pnic": info.pnic, "system_id": info.systemId}
            for info in target.sriov or []
            if not info.virtualFunction
        ]

    def read_hosts(self, snap, cluster: str, switch: str) -> dict[str, DiscoveredHost]:
        """What discovery stores of each host of the compute cluster (see read_hosts)."""
        return read_hosts(self._driver, snap, cluster, switch)
