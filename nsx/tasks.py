"""Celery tasks: reconcile one tenant's part in NSX, check a manager, find drift."""

import contextlib
import logging

import redis
from celery import shared_task
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from audit.services import record
from core import leases
from netpolicy import propagation
from netpolicy.compiler.model import PolicyError
from nsx import realize
from nsx.choices import CheckResult
from nsx.client import NsxClient, NsxError
from nsx.models import AppliedState, NsxManager
from tenants.models import Tenant

log = logging.getLogger(__name__)
MAX_RETRIES = 8
LEASE = "nsx-part"  # core.leases: a part's run is queued, running or waiting to retry (the sweep leaves it)
BACKOFF_BASE, BACKOFF_CAP = 2, 300
# Parts one sweep queues at most: after a site-wide change (the CGNAT pool) a backlog longer than a lease
# is then topped up by a bounded amount each sweep instead of being queued again in full.
SWEEP_BATCH = 200


@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True)
def reconcile_tenant(self, manager_id: int, tenant_id: int | None) -> str:
    """Bring one tenant's part (None: the site's) in line with intent; transient NSX errors back off."""
    manager = NsxManager.objects.select_related("vcenter").filter(pk=manager_id).first()
    tenant = Tenant.objects.filter(pk=tenant_id).first() if tenant_id is not None else None
    if manager is None or (tenant_id is not None and tenant is None):
        return "gone"
    countdown = min(BACKOFF_BASE * 2**self.request.retries, BACKOFF_CAP)
    generations = realize.intent_generations(tenant)  # what this run is for, read before compiling
    try:
        with leases.holding(LEASE, [part(manager_id, tenant_id)]):
            outcome = realize.realize_tenant(manager, tenant, generations=generations)
    except (NsxError, OSError, PolicyError) as exc:  # OSError: the CA bundle cannot be read
        _note_error(manager, tenant, str(exc))
        if getattr(exc, "transient", False):
            _hold_for_retry(manager_id, tenant_id, countdown)
            raise self.retry(countdown=countdown, exc=exc) from exc
        _given_up(manager, tenant, generations)
        return "error"
    if outcome.pending:  # NSX still realizing: look again later (pages show "in progress" meanwhile)
        _hold_for_retry(manager_id, tenant_id, countdown)
        raise self.retry(countdown=countdown)
    return "error" if outcome.errors else ("patched" if outcome.patched else "unchanged")


def part(manager_id: int, tenant_id: int | None) -> str:
    """A part's name in core.leases: the manager and the tenant (or the site)."""
    return f"{manager_id}-{tenant_id if tenant_id is not None else 'site'}"


def _hold_for_retry(manager_id: int, tenant_id: int | None, countdown: int) -> None:
    """A retry waiting on its countdown is still queued work: the sweep leaves the part to it."""
    with contextlib.suppress(redis.RedisError):
        leases.take(LEASE, [part(manager_id, tenant_id)], seconds=countdown + leases.grace())


def queue(parts: list[tuple[int, int | None]]) -> None:
    """Queue a run for each (manager, tenant or None) part, leased so the sweep leaves it to that run."""
    for manager_id, tenant_id in parts:
        reconcile_tenant.delay(manager_id, tenant_id)
    with contextlib.suppress(redis.RedisError):  # after the publish: no lease, and the sweep queues it again
        leases.take(LEASE, [part(*p) for p in parts])


def _note_error(manager: NsxManager, tenant: Tenant | None, message: str) -> None:
    AppliedState.objects.filter(manager=manager, tenant=tenant).update(error=message[:4000])


def retry_failed(manager_id: int) -> int:
    """The manager's parts a run gave up on are behind again, so the sweep re-runs them (settings fixed)."""
    return AppliedState.objects.filter(manager_id=manager_id).exclude(error="").update(generation=0)


def _given_up(manager: NsxManager, tenant: Tenant | None, generations: tuple[int, int]) -> None:
    """A permanent error (shown on the part) is not retried by the sweep until the intent moves again."""
    generation = generations[1] if tenant is not None else generations[0]
    parts = AppliedState.objects.filter(manager=manager, tenant=tenant, generation__lt=generation)
    parts.update(generation=generation)


def queue_policy_change(tenant_ids) -> None:
    """netpolicy.propagation consumer: re-apply the affected tenants' parts on every manager that has them."""
    parts = AppliedState.objects.all()
    if tenant_ids is not None:
        parts = parts.filter(tenant_id__in=tenant_ids)
    found = list(parts.values_list("manager_id", "tenant_id").order_by("manager_id", "tenant_id"))
    if tenant_ids is None:  # the site's own part: site policies, groups and services
        found += [(manager_id, None) for manager_id in NsxManager.objects.values_list("pk", flat=True)]
    queue(list(dict.fromkeys(found)))


@shared_task
def sweep_behind() -> int:
    """Periodic: queue again every part whose intent moved past its last run's and that no queued run holds."""
    site = propagation.site_generation()
    behind = AppliedState.objects.filter(Q(tenant__isnull=False, generation__lt=F("tenant__network_generation"))
                                         | Q(tenant__isnull=True, generation__lt=site))  # fmt: skip
    parts = list(behind.values_list("manager_id", "tenant_id").order_by("manager_id", "tenant_id"))
    busy = leases.leased(LEASE, [part(*p) for p in parts])
    lost = [p for p in parts if part(*p) not in busy][:SWEEP_BATCH]
    queue(lost)
    return len(lost)


@shared_task
def check_manager(manager_id: int) -> str:
    """Reachability: the credentials work and the transport zone and tier-0 the site named exist."""
    manager = NsxManager.objects.filter(pk=manager_id).first()
    if manager is None:
        return "gone"
    paths = [p for p in (manager.transport_zone_path, manager.tier0_path) if p]
    try:
        with NsxClient(realize.config(manager)) as client:
            found = [client.get(path).get("display_name") or path for path in paths]
        result, message = CheckResult.OK, f"Reachable; found {', '.join(found)}."
    except (NsxError, OSError) as exc:
        result, message = CheckResult.FAILED, str(exc)
    NsxManager.objects.filter(pk=manager.pk).update(check_result=result, check_message=message[:4000],
                                                    checked_at=timezone.now())  # fmt: skip
    if result == CheckResult.OK:  # what NSX refused before (a missing tier-0, say) may be there now
        retry_failed(manager.pk)
    return result


@shared_task
def sweep_drift() -> int:
    """Objects Enclave applied that NSX no longer holds: their part is applied again (and audited)."""
    drifted = 0
    for manager in NsxManager.objects.select_related("vcenter"):
        try:
            with NsxClient(realize.config(manager)) as client:
                present = realize.owned(client, manager)
        except (NsxError, OSError) as exc:
            log.warning("drift check of %s failed: %s", manager, exc)
            continue
        for state in AppliedState.objects.filter(manager=manager).exclude(digest=""):
            missing = sorted(set(state.paths) - set(present))
            if missing:
                drifted += 1
                _drifted(manager, state, missing)
    return drifted


def _drifted(manager: NsxManager, state: AppliedState, missing: list[str]) -> None:
    """Forget the part's digest (its next run sends it whole), audit what went missing, and queue that run."""
    with transaction.atomic():
        AppliedState.objects.filter(pk=state.pk).update(digest="")
        message = "missing in NSX: " + ", ".join(missing[:20])
        record("nsx.drift", manager, tenant=state.tenant_id, message=message)
        manager_id, tenant_id = manager.pk, state.tenant_id
        transaction.on_commit(lambda: reconcile_tenant.delay(manager_id, tenant_id))
