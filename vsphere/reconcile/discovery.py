"""Discovery: hosts, PFs and devices read from vCenter into PostgreSQL; devices held by clusters are never lost."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from audit.services import record
from vsphere.choices import LinkType, PFSource
from vsphere.models import DPU, DeviceAssignment, Host, HostFeatures, PCIDevice, PhysicalFunction, VCenter, VGPUProfile
from vsphere.plan.specs import DiscoveredHost
from vsphere.reconcile.intent import vcenter_config
from vsphere.vim.driver import Driver

DEVICE_FIELDS = ("kind", "mode", "vendor_id", "device_id", "vendor_name", "device_name", "memory_gib", "system_id")


def discover(vcenter: VCenter) -> dict:
    """Sync hosts, SR-IOV PFs, GPUs, passthrough devices, DPUs, host features and a summary of the rest."""
    with Driver(vcenter_config(vcenter)) as drv:
        snap = drv.snapshot(vcenter.datacenter)
        found = drv.devices.read_hosts(snap, vcenter.compute_cluster, vcenter.dvs_name)
    now = timezone.now()
    hosts = snap.clusters.get(vcenter.compute_cluster, (None, []))[1]
    summary = {
        "clusters": sorted(snap.clusters),
        "hosts": sorted(hosts),
        "datastores": sorted(snap.datastores),
        "templates": sorted(name for name, (vm, _) in snap.vms.items() if vm.template),
        "switches": {name: {"mtu": dvs.mtu, "hosts": list(dvs.hosts)} for name, (dvs, _) in snap.switches.items()},
        "portgroups": {name: {"vlan": pg.vlan} for name, (pg, _) in snap.portgroups.items()},
    }
    with transaction.atomic():
        for name in hosts:
            host, _ = Host.objects.update_or_create(
                vcenter=vcenter, name=name, defaults={"compute_cluster": vcenter.compute_cluster, "discovered": now}
            )
            for pf in snap.pfs.get(name, {}).values():
                _sync_pf(host, pf)
        summary["device_notes"] = sync(vcenter, found, now)
        VCenter.objects.filter(pk=vcenter.pk).update(inventory=summary, last_discovery=now, discovery_error="")
        record("vcenter.discover", vcenter, message=f"{len(hosts)} hosts")
    return summary


def _sync_pf(host: Host, pf) -> None:
    """Discovered PFs update capacity; an admin-entered PF keeps the admin's model and link type."""
    existing = PhysicalFunction.objects.filter(host=host, pci_id=pf.pci_id).first()
    firmware = max(pf.max_vfs, pf.num_vfs + 1)
    if existing is None:
        PhysicalFunction.objects.create(
            host=host, pci_id=pf.pci_id, pnic=pf.pnic, link_type=LinkType.INFINIBAND,
            firmware_num_vfs=firmware, max_vfs=pf.num_vfs, source=PFSource.DISCOVERED,
            port=int(pf.pci_id[-1]) + 1,
        )  # fmt: skip
        return
    existing.pnic, existing.max_vfs, existing.firmware_num_vfs = pf.pnic, pf.num_vfs, firmware
    existing.save(update_fields=["pnic", "max_vfs", "firmware_num_vfs"])


def sync(vcenter: VCenter, found: dict[str, DiscoveredHost], now) -> list[str]:
    """Store what discovery found for each host; return notes on what could not change (held devices)."""
    hosts = {h.name: h for h in Host.objects.filter(vcenter=vcenter, name__in=found)}
    notes: list[str] = []
    for name, discovered in found.items():
        host = hosts.get(name)
        if host is None:
            continue
        _features(host, discovered, now)
        _dpus(host, discovered, now)
        notes += _devices(host, discovered, now)
    notes += _profiles(vcenter, found, now)
    return notes


def _features(host: Host, found: DiscoveredHost, now) -> None:
    HostFeatures.objects.update_or_create(host=host, defaults={
        "pvrdma_vmknic": found.pvrdma_vmknic[:32], "pvrdma_vmknic_exists": found.pvrdma_vmknic_exists,
        "pvrdma_firewall": found.pvrdma_firewall, "ens": found.ens, "network_offload": found.network_offload,
        "discovered": now,
    })  # fmt: skip


def _dpus(host: Host, found: DiscoveredHost, now) -> None:
    ids = [d.dpu_id for d in found.dpus]
    DPU.objects.filter(host=host).exclude(dpu_id__in=ids).delete()
    for dpu in found.dpus:
        DPU.objects.update_or_create(
            host=host,
            dpu_id=dpu.dpu_id[:64],
            defaults={"pnic": dpu.pnic[:32], "model": dpu.model[:120], "discovered": now},
        )


def _devices(host: Host, found: DiscoveredHost, now) -> list[str]:
    """Create or update discovered devices; a held device keeps its mode and type until it is free."""
    notes = []
    existing = {d.pci_id: d for d in _with_holders(PCIDevice.objects.filter(host=host))}
    for dev in found.devices:
        values = {f: getattr(dev, f) for f in DEVICE_FIELDS}
        row = existing.pop(dev.pci_id, None)
        if row is None:
            PCIDevice.objects.create(host=host, pci_id=dev.pci_id, source=PFSource.DISCOVERED, discovered=now, **values)
            continue
        if row.held and (row.mode, row.vendor_id, row.device_id) != (dev.mode, dev.vendor_id, dev.device_id):
            notes.append(f"{host.name} {dev.pci_id}: vCenter reports it as {dev.mode}; kept as {row.mode} while held")
            values = {f: v for f, v in values.items() if f not in ("mode", "vendor_id", "device_id")}
        PCIDevice.objects.filter(pk=row.pk).update(discovered=now, **values)
    for row in existing.values():  # no longer passthrough-enabled or gone
        if row.held:
            notes.append(f"{host.name} {row.pci_id}: no longer reported by vCenter but held by a cluster")
        elif row.source == PFSource.DISCOVERED:
            row.delete()
    return notes


def _with_holders(devices):
    return devices.annotate(held=Exists(DeviceAssignment.objects.filter(device=OuterRef("pk"))))


def _profiles(vcenter: VCenter, found: dict[str, DiscoveredHost], now) -> list[str]:
    profiles = {p.name: p for host in found.values() for p in host.profiles}
    for profile in profiles.values():
        VGPUProfile.objects.update_or_create(vcenter=vcenter, name=profile.name[:64], defaults={
            "device_vendor_id": profile.device_vendor_id, "gpu_model": profile.gpu_model[:120],
            "framebuffer_gib": profile.framebuffer_gib, "per_gpu": profile.per_gpu,
            "profile_class": profile.profile_class[:32], "discovered": now,
        })  # fmt: skip
    held = DeviceAssignment.objects.filter(profile=OuterRef("pk"))
    gone = VGPUProfile.objects.filter(vcenter=vcenter).exclude(name__in=profiles).annotate(held=Exists(held))
    notes = [f"vGPU profile {p.name}: no longer reported but held by a cluster" for p in gone if p.held]
    gone.filter(held=False).delete()
    return notes
