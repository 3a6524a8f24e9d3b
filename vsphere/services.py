"""Discovery, plan preview and the operation log (the database side of the reconciler)."""

from django.db import transaction
from django.utils import timezone

from audit.services import record
from tenants.models import VirtualCluster
from vsphere import converge as converge_mod
from vsphere.choices import LinkType, PFSource, StepStatus
from vsphere.driver import Driver
from vsphere.intent import cluster_intent, vcenter_config
from vsphere.models import Host, OperationLog, PhysicalFunction, VCenter


def discover(vcenter: VCenter) -> dict:
    """Sync hosts, SR-IOV PFs and a summary of datastores, templates, switches and port groups."""
    with Driver(vcenter_config(vcenter)) as drv:
        snap = drv.snapshot(vcenter.datacenter)
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


def preview(cluster: VirtualCluster, vcenter: VCenter) -> list[str]:
    """The vSphere changes the reconciler would make now, for the approval page."""
    with Driver(vcenter_config(vcenter)) as drv:
        return [str(change) for change in converge_mod.preview(drv, cluster_intent(cluster, vcenter))]


class StepLog:
    """Writes each reconciler step to the operation log as it starts and ends."""

    def __init__(self, cluster: VirtualCluster, generation: int):
        self.cluster = cluster
        self.generation = generation

    def __call__(self, key: str, step: str, status: str) -> None:
        # Written before the request is sent: a restarted worker reads it as its journal.
        OperationLog.objects.create(
            cluster=self.cluster, generation=self.generation, key=key, step=step[:2000], status=status
        )

    def note(self, message: str, status: str = StepStatus.INFO) -> None:
        OperationLog.objects.create(
            cluster=self.cluster, generation=self.generation, key="note", step=message[:2000], status=status
        )


def started_clones(cluster: VirtualCluster) -> frozenset[str]:
    """VM names whose clone Enclave started for this cluster (from the journal)."""
    keys = OperationLog.objects.filter(cluster=cluster, key__startswith="clone:", status=StepStatus.STARTED)
    return frozenset(key.removeprefix("clone:") for key in keys.values_list("key", flat=True))
