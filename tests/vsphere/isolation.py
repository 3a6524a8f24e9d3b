"""Read VM NICs straight from vCenter, as `govc device.info` shows them, independent of the driver's parser."""

from pyVmomi import vim


def nic_networks(drv, vm_names, datacenter: str = "DC0") -> dict[str, list[tuple[str, str]]]:
    """(device type, network name) of every network adapter of each named VM."""
    snap = drv.snapshot(datacenter)
    pg_names = {mor.key: mor.name for _pg, mor in snap.portgroups.values()}
    result = {}
    for name in vm_names:
        vm = snap.vms[name][1]
        nics = []
        for dev in vm.config.hardware.device:  # one raw property read per VM, no Enclave parsing
            if not isinstance(dev, vim.vm.device.VirtualEthernetCard):
                continue
            port = getattr(dev.backing, "port", None)
            network = pg_names.get(port.portgroupKey, port.portgroupKey) if port else dev.backing.deviceName
            nics.append((type(dev).__name__.rsplit(".", 1)[-1], network))
        result[name] = nics
    return result


def foreign_nics(drv, vm_names, allowed: set[str], datacenter: str = "DC0") -> list[str]:
    """Every NIC of the VMs that sits on a network outside `allowed`, as 'vm: type on network'."""
    return [
        f"{vm}: {kind} on {network}"
        for vm, nics in nic_networks(drv, vm_names, datacenter).items()
        for kind, network in nics
        if network not in allowed
    ]


def reconfigure(driver, vm_name, *device_changes):
    """An out-of-band edit, as an admin in the vSphere client would make it."""
    vm = driver.snapshot("DC0").vm_mor(vm_name)
    driver.wait(vm.ReconfigVM_Task(vim.vm.ConfigSpec(deviceChange=list(device_changes))), "out of band")


def e1000_on(driver, network_name):
    network = driver.snapshot("DC0").networks[network_name]
    nic = vim.vm.device.VirtualE1000(key=-1)
    nic.backing = vim.vm.device.VirtualEthernetCard.NetworkBackingInfo(deviceName=network_name, network=network)
    return vim.vm.device.VirtualDeviceSpec(operation="add", device=nic)
