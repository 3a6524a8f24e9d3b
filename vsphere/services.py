"""Site admins' inventory changes (vCenters, PFs), queued discovery and queued plan previews."""

from django.db import transaction
from django.utils import timezone

from audit.services import record, snapshot
from core.errors import Conflict, InvalidRequest
from tenants.choices import ClusterState
from tenants.models import VirtualCluster
from vsphere.choices import PFSource, PlanStatus
from vsphere.models import (
    Host,
    PhysicalFunction,
    Placement,
    PlanPreview,
    SecretPathError,
    VCenter,
    VFAssignment,
    secret_path,
)
from vsphere.naming import TENANT_PORTGROUP_PREFIX
from vsphere.reconcile.previews import FRESH, LOST
from vsphere.tasks import compute_plan, discover_vcenter

OBSERVED_VCENTER_FIELDS = ("id", "inventory", "last_discovery", "discovery_error")
VCENTER_FIELDS = frozenset(f.name for f in VCenter._meta.concrete_fields if f.name not in OBSERVED_VCENTER_FIELDS)
# Discovery owns these on discovered PFs; admins may still describe the card (model, link type, port).
DISCOVERED_PF_FIELDS = ("host", "pci_id", "pnic", "firmware_num_vfs", "max_vfs")


def _check_tls_and_secret(vcenter: VCenter) -> None:
    """TLS is verified unless the explicit lab switch is on; some secret must be configured."""
    if vcenter.insecure and vcenter.verify_tls:
        raise InvalidRequest("insecure skips TLS verification; it cannot be combined with verify_tls.", "insecure")
    if not vcenter.verify_tls and not vcenter.insecure:
        raise InvalidRequest("Skipping TLS verification needs the explicit insecure switch (labs only).", "verify_tls")
    if vcenter.insecure and vcenter.ca_bundle:
        raise InvalidRequest("A CA bundle has no effect while insecure is on.", "ca_bundle")
    if not (vcenter.password or vcenter.password_file):
        raise InvalidRequest("Give a password or a password_file.", "password")
    for name in ("password_file", "ca_bundle"):
        value = getattr(vcenter, name)
        if value:
            try:
                secret_path(value)
            except SecretPathError as exc:
                raise InvalidRequest(str(exc), name) from None


def _apply_vcenter(vcenter: VCenter, data: dict) -> None:
    if "insecure" in data and "verify_tls" not in data:
        data["verify_tls"] = not data["insecure"]  # the lab switch alone says it all
    unknown = set(data) - VCENTER_FIELDS
    if unknown:
        raise InvalidRequest(f"Unknown fields: {', '.join(sorted(unknown))}")
    for name, value in data.items():
        setattr(vcenter, name, value)
    _check_tls_and_secret(vcenter)
    _check_management_network(vcenter)
    vcenter.full_clean()


def _check_management_network(vcenter: VCenter) -> None:
    """A management network is shared by every tenant's VMs: its isolation must be stated."""
    name = vcenter.management_network = vcenter.management_network.strip()
    if not name:
        return
    if name.startswith(TENANT_PORTGROUP_PREFIX):
        raise InvalidRequest("That is a tenant's port group, not a management network.", "management_network")
    if not vcenter.management_isolation.strip():
        raise InvalidRequest(
            "State how the management network keeps tenants apart (e.g. private VLAN, host firewall); "
            "it is shown to everyone whose VMs get a NIC on it.",
            "management_isolation",
        )


def create_vcenter(data: dict) -> VCenter:
    """Register a vCenter; its password is encrypted at rest (core.crypto)."""
    with transaction.atomic():
        vcenter = VCenter()
        _apply_vcenter(vcenter, dict(data))
        vcenter.save()
        record("vcenter.create", vcenter, after=snapshot(vcenter), message=_tls_note(vcenter))
    return vcenter


def update_vcenter(vcenter: VCenter, data: dict) -> VCenter:
    """Change a vCenter's connection settings; a new password is noted (never shown) in the audit log."""
    with transaction.atomic():
        vcenter = VCenter.objects.select_for_update().get(pk=vcenter.pk)
        before = snapshot(vcenter)
        _apply_vcenter(vcenter, dict(data))
        vcenter.save()
        notes = "; ".join(filter(None, [_tls_note(vcenter), "password changed" if data.get("password") else ""]))
        record("vcenter.update", vcenter, before=before, after=snapshot(vcenter), message=notes)
    return vcenter


def _tls_note(vcenter: VCenter) -> str:
    return "INSECURE: TLS verification off" if vcenter.skips_tls_verification else ""


def delete_vcenter(vcenter: VCenter) -> None:
    """Forget a vCenter and its inventory; refused while clusters hold VFs on it."""
    with transaction.atomic():
        vcenter = VCenter.objects.select_for_update().get(pk=vcenter.pk)
        held = VFAssignment.objects.filter(pf__host__vcenter=vcenter).count()
        if held:
            raise Conflict(f"{held} VFs on {vcenter} are assigned to clusters; decommission them first.")
        if vcenter.nsx_id is not None:  # what nsx's PROTECT foreign key refused before the link moved here
            raise Conflict(f"{vcenter} has an NSX Manager; forget it first.")
        placed = vcenter.placements.exclude(cluster__state__in=[ClusterState.RETIRED, ClusterState.REJECTED]).count()
        if placed:
            raise Conflict(f"{placed} clusters live on {vcenter}; decommission them first.")
        # Retired clusters keep their history; they no longer point at the forgotten vCenter.
        Placement.objects.filter(site=vcenter).update(site=None)
        record("vcenter.delete", vcenter, before=snapshot(vcenter))
        vcenter.delete()


def queue_discovery(vcenter: VCenter) -> None:
    """Queue a discovery run for the worker (pages and the API never call vSphere)."""
    with transaction.atomic():
        record("vcenter.discovery_queued", vcenter)
        transaction.on_commit(lambda: discover_vcenter.delay(vcenter.pk))


def create_pf(data: dict) -> PhysicalFunction:
    """Add a PF by hand (where vCenter reports no SR-IOV devices), checking the firmware rule."""
    with transaction.atomic():
        Host.objects.select_for_update().get(pk=data["host"].pk)  # one card check at a time per host
        pf = PhysicalFunction(source=PFSource.MANUAL, **data)
        _save_pf(pf)
        record("pf.create", pf, after=snapshot(pf))
    return pf


def update_pf(pf: PhysicalFunction, data: dict) -> PhysicalFunction:
    """Edit a PF; capacity of discovered PFs comes from discovery, and assigned VFs must stay."""
    with transaction.atomic():
        pf = PhysicalFunction.objects.select_for_update().select_related("host").get(pk=pf.pk)
        Host.objects.select_for_update().get(pk=pf.host_id)
        before = snapshot(pf)
        for name, value in data.items():
            setattr(pf, name, value)
        _check_pf_update(pf, before)
        _save_pf(pf)
        record("pf.update", pf, before=before, after=snapshot(pf))
    return pf


def _check_pf_update(pf: PhysicalFunction, before: dict) -> None:
    if pf.source == PFSource.DISCOVERED:
        after = snapshot(pf)
        changed = [name for name in DISCOVERED_PF_FIELDS if after[name] != before[name]]
        if changed:
            raise InvalidRequest(f"{', '.join(changed)} of a discovered PF come from vCenter; run discovery instead.")
    highest = pf.assignments.order_by("-slot").values_list("slot", flat=True).first()
    if highest is not None and pf.max_vfs <= highest:
        raise Conflict(f"VF {highest} of {pf} is assigned to a cluster; max_vfs must stay above it.")


def _save_pf(pf: PhysicalFunction) -> None:
    """Validate fields, uniqueness and the card's firmware rule, then save."""
    duplicate = PhysicalFunction.objects.filter(host=pf.host_id, pci_id=pf.pci_id).exclude(pk=pf.pk)
    if duplicate.exists():  # first: a duplicate would also count twice in the card's firmware rule
        raise InvalidRequest(f"{pf.host} already has a PF {pf.pci_id}.", "pci_id")
    pf.full_clean(validate_unique=False, validate_constraints=False)
    pf.save()


def delete_pf(pf: PhysicalFunction) -> None:
    """Remove a PF; refused while clusters hold its VFs."""
    with transaction.atomic():
        pf = PhysicalFunction.objects.select_for_update().select_related("host").get(pk=pf.pk)
        held = pf.assignments.count()
        if held:
            raise Conflict(f"{held} VFs of {pf} are assigned to clusters.")
        record("pf.delete", pf, before=snapshot(pf))
        pf.delete()


# ---------------------------------------------------------------- plan previews (pages and the API)


def request_preview(cluster: VirtualCluster) -> PlanPreview:
    """The cluster's current plan preview, queueing a new one when there is none fresh for its generation."""
    now = timezone.now()
    latest = PlanPreview.objects.filter(cluster=cluster, generation=cluster.generation).first()
    if latest is not None:
        waiting = latest.status == PlanStatus.QUEUED and now - latest.requested < LOST
        if waiting or (latest.finished and now - latest.finished < FRESH):
            return latest
    with transaction.atomic():
        preview = PlanPreview.objects.create(cluster=cluster, generation=cluster.generation)
        transaction.on_commit(lambda: compute_plan.delay(preview.pk))
    return preview
