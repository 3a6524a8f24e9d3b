"""Register, change and forget NSX Managers (site admins); every change audited, checks queued."""

from django.core.exceptions import ValidationError
from django.db import transaction

from audit.services import record, snapshot
from core.errors import Conflict, InvalidRequest
from core.secrets import SecretPathError, secret_path
from nsx.choices import CheckResult
from nsx.models import AppliedState, NsxManager
from nsx.tasks import check_manager, retry_failed

FIELDS = frozenset({"vcenter", "url", "username", "password", "verify_tls", "ca_bundle", "transport_zone_path",
                    "tier0_path", "domain"})  # fmt: skip


def _apply(manager: NsxManager, data: dict) -> None:
    unknown = set(data) - FIELDS
    if unknown:
        raise InvalidRequest(f"Unknown fields: {', '.join(sorted(unknown))}")
    if manager.pk and "vcenter" in data and data["vcenter"] != vcenter_of(manager):
        raise InvalidRequest("An NSX Manager stays with its vCenter; forget it and register a new one.", "vcenter")
    for name, value in data.items():
        if name != "vcenter":  # the link lives on the vCenter's side (vsphere sits above nsx)
            setattr(manager, name, value)
    if not manager.password:
        raise InvalidRequest("Give the NSX user's password.", "password")
    if manager.ca_bundle:
        if not manager.verify_tls:
            raise InvalidRequest("A CA bundle has no effect while TLS verification is off.", "ca_bundle")
        try:
            secret_path(manager.ca_bundle)
        except SecretPathError as exc:
            raise InvalidRequest(str(exc), "ca_bundle") from None
    try:
        manager.full_clean()
    except ValidationError as exc:
        field, errors = next(iter(exc.message_dict.items()))
        raise InvalidRequest(" ".join(errors), None if field == "__all__" else field) from None


def vcenter_of(manager: NsxManager):
    """The vCenter whose link names this manager (None if it was forgotten)."""
    return getattr(manager, "vcenter", None)


def _snapshot(manager: NsxManager) -> dict:
    vcenter = vcenter_of(manager)
    return snapshot(manager) | {"vcenter": vcenter.pk if vcenter else None}


def _link(manager: NsxManager, vcenter) -> None:
    """Compare-and-set the vCenter's link: a vCenter has at most one NSX Manager."""
    if vcenter is None:
        raise InvalidRequest("Name the vCenter this NSX Manager serves.", "vcenter")
    if not type(vcenter).objects.filter(pk=vcenter.pk, nsx=None).update(nsx=manager):
        raise Conflict(f"{vcenter} already has an NSX Manager.")
    vcenter.nsx = manager


def _tls_note(manager: NsxManager) -> str:
    return "" if manager.verify_tls else "INSECURE: TLS verification off"


def create_manager(data: dict) -> NsxManager:
    """Register the NSX Manager of a vCenter (password encrypted at rest) and queue its reachability check."""
    with transaction.atomic():
        manager = NsxManager()
        _apply(manager, dict(data))
        manager.save()
        _link(manager, data.get("vcenter"))
        record("nsx.manager_create", manager, after=_snapshot(manager), message=_tls_note(manager))
        _queue_check(manager)
    return manager


def update_manager(manager: NsxManager, data: dict) -> NsxManager:
    """Change connection settings (a new password is noted, never shown) and check again."""
    with transaction.atomic():
        manager = NsxManager.objects.select_for_update(of=("self",)).select_related("vcenter").get(pk=manager.pk)
        before = _snapshot(manager)
        _apply(manager, dict(data))
        manager.save()
        notes = "; ".join(filter(None, [_tls_note(manager), "password changed" if data.get("password") else ""]))
        record("nsx.manager_update", manager, before=before, after=_snapshot(manager), message=notes)
        retry_failed(manager.pk)  # parts that failed under the old settings are tried again
        _queue_check(manager)
    return manager


def delete_manager(manager: NsxManager) -> None:
    """Forget a manager; refused while Enclave still owns tenant objects there (decommission first)."""
    with transaction.atomic():
        manager = NsxManager.objects.select_for_update().get(pk=manager.pk)
        held = AppliedState.objects.filter(manager=manager, tenant__isnull=False).exclude(paths=[]).count()
        if held:
            raise Conflict(f"{held} tenants still have segments or rules in {manager}; decommission them first.")
        record("nsx.manager_delete", manager, before=_snapshot(manager))
        manager.delete()


def queue_check(manager: NsxManager) -> None:
    """Queue a reachability check (pages and the API never call NSX)."""
    with transaction.atomic():
        record("nsx.check_queued", manager)
        _queue_check(manager)


def _queue_check(manager: NsxManager) -> None:
    NsxManager.objects.filter(pk=manager.pk).update(check_result=CheckResult.QUEUED)
    transaction.on_commit(lambda: check_manager.delay(manager.pk))
