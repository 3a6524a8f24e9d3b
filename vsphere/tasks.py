"""Celery tasks: reconcile one cluster (serialized per cluster), discovery, drift check."""

import logging
import threading

import redis
from celery import shared_task
from django.conf import settings
from django.db import transaction

from audit.services import record
from portal.errors import ServiceError
from tenants import services as tenant_services
from tenants.choices import ClusterState
from tenants.models import VirtualCluster
from vsphere import allocation, converge, devices, services
from vsphere.choices import StepStatus
from vsphere.driver import Driver
from vsphere.errors import PermanentError, TransientError
from vsphere.intent import DECOMMISSION_STATES, cluster_intent, inventory, vcenter_config
from vsphere.models import VCenter
from vsphere.receivers import reserve

log = logging.getLogger(__name__)
S = ClusterState
LIVE_STATES = {S.READY, S.DEGRADED, S.ERROR}  # a new generation of these is provisioned again
CONVERGE_STATES = {S.APPROVED, S.PROVISIONING, S.READY, S.DEGRADED, S.ERROR}
LOCK_TTL = 30  # seconds; extended every LOCK_TTL/3 while a run is alive
MAX_RETRIES = 8
BACKOFF_BASE = 2  # seconds; doubles per retry up to BACKOFF_CAP
BACKOFF_CAP = 300


class ClusterLock:
    """Redis lock per cluster, kept alive while held: a killed worker's lock lapses in LOCK_TTL."""

    def __init__(self, cluster_id: int):
        client = redis.Redis.from_url(settings.REDIS_URL)
        self._lock = client.lock(f"enclave:vsphere:reconcile:{cluster_id}", timeout=LOCK_TTL, blocking_timeout=1)
        self._stop = threading.Event()
        self._keeper = threading.Thread(target=self._keep_alive, daemon=True)

    def acquire(self) -> bool:
        if not self._lock.acquire():
            return False
        self._keeper.start()
        return True

    def _keep_alive(self) -> None:
        while not self._stop.wait(LOCK_TTL / 3):
            try:
                self._lock.reacquire()
            except redis.exceptions.RedisError:
                log.warning("could not extend a reconcile lock")

    def release(self) -> None:
        self._stop.set()
        try:
            self._lock.release()
        except redis.exceptions.LockError:
            log.warning("reconcile lock expired before release")


@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True)
def reconcile_cluster(self, cluster_id: int) -> str:
    """Converge one cluster to its intent; one run per cluster at a time (Redis lock)."""
    lock = ClusterLock(cluster_id)
    if not lock.acquire():
        raise self.retry(countdown=5, max_retries=None)  # another worker is converging this cluster
    try:
        return _reconcile(self, cluster_id)
    finally:
        lock.release()


def _reconcile(task, cluster_id: int) -> str:
    cluster = VirtualCluster.objects.select_related("tenant").filter(pk=cluster_id).first()
    if cluster is None:
        return "gone"
    if cluster.state not in CONVERGE_STATES | DECOMMISSION_STATES:
        return f"nothing to do in state {cluster.state}"
    vcenter = VCenter.objects.order_by("pk").first()
    if vcenter is None:
        return _fail(cluster, "No vCenter is registered for this site.")
    generation = cluster.generation
    steps = services.StepLog(cluster, generation)
    try:
        if cluster.state == S.APPROVED or (cluster.state in LIVE_STATES and cluster.observed_generation != generation):
            cluster = tenant_services.set_observed(cluster, S.PROVISIONING, "Reconciling on vSphere")
        if cluster.state not in DECOMMISSION_STATES:
            reserve(cluster, vcenter)  # what approval took, taken again if lost (idempotent)
        intent = cluster_intent(cluster, vcenter)
        with Driver(vcenter_config(vcenter)) as drv:
            converge.converge(
                drv, intent, inventory=inventory(vcenter), adopt=services.started_clones(cluster), on_step=steps
            )
    except TransientError as exc:
        return _retry(task, cluster, steps, exc)
    except (PermanentError, ServiceError) as exc:
        steps.note(str(exc), StepStatus.FAILED)
        return _fail(cluster, str(exc))
    return _succeed(cluster, generation, steps)


def _succeed(cluster: VirtualCluster, generation: int, steps) -> str:
    cluster.refresh_from_db()
    if cluster.state in DECOMMISSION_STATES:
        with transaction.atomic():
            freed, devs = allocation.release(cluster), devices.release(cluster)
            record("cluster.vfs_released", cluster, tenant=cluster.tenant_id, message=f"{freed} VFs")
            if devs:
                record("cluster.devices_released", cluster, tenant=cluster.tenant_id, message=f"{devs} devices")
        if cluster.state == S.DECOMMISSIONING:
            tenant_services.set_observed(cluster, S.RETIRED, "Decommissioned", observed_generation=generation)
        steps.note("decommissioned", StepStatus.DONE)
        return "retired"
    if cluster.generation != generation:
        reconcile_cluster.delay(cluster.pk)  # intent changed meanwhile: converge again
        return "requeued"
    with transaction.atomic():
        # Only now are the removed nodes' NICs gone from vCenter, so their VFs can be reused.
        freed, devs = allocation.release_unwanted(cluster), devices.release_unwanted(cluster)
        if freed:
            record("cluster.vfs_released", cluster, tenant=cluster.tenant_id, message=f"{freed} VFs (resized)")
        if devs:
            record("cluster.devices_released", cluster, tenant=cluster.tenant_id, message=f"{devs} devices (resized)")
    if cluster.state != S.READY or cluster.observed_generation != generation:
        tenant_services.set_observed(cluster, S.READY, "Realized on vSphere", observed_generation=generation)
    steps.note("ready", StepStatus.DONE)
    return "ready"


def _retry(task, cluster: VirtualCluster, steps, exc: TransientError) -> str:
    retries = task.request.retries
    if retries >= MAX_RETRIES:
        steps.note(f"giving up after {retries} retries: {exc}", StepStatus.FAILED)
        return _fail(cluster, f"vCenter kept failing: {exc}")
    countdown = min(BACKOFF_BASE * 2**retries, BACKOFF_CAP)
    steps.note(f"transient error, retrying in {countdown}s: {exc}", StepStatus.INFO)
    _set_message(cluster, f"Retrying in {countdown}s: {exc}")
    raise task.retry(countdown=countdown, exc=exc)


def _set_message(cluster: VirtualCluster, message: str) -> None:
    """Show progress without changing state (an unreachable vCenter is reported this way)."""
    VirtualCluster.objects.filter(pk=cluster.pk).update(status_message=message[:4000])


def _fail(cluster: VirtualCluster, message: str) -> str:
    cluster.refresh_from_db()
    try:
        tenant_services.set_observed(cluster, S.ERROR, message)
    except ServiceError:
        _set_message(cluster, message)
    return "error"


@shared_task
def discover_all() -> int:
    """Periodic discovery of every registered vCenter."""
    return sum(_discover_one(vcenter) for vcenter in VCenter.objects.all())


@shared_task
def discover_vcenter(vcenter_id: int) -> bool:
    """Discovery of one vCenter, queued by an admin (API or page)."""
    vcenter = VCenter.objects.filter(pk=vcenter_id).first()
    return vcenter is not None and _discover_one(vcenter)


def _discover_one(vcenter: VCenter) -> bool:
    """Run discovery; a failure is kept on the vCenter for its page instead of raising."""
    try:
        services.discover(vcenter)
        return True
    except (TransientError, PermanentError, OSError) as exc:
        # OSError: an unreadable password_file is a configuration error, shown like the others
        VCenter.objects.filter(pk=vcenter.pk).update(discovery_error=str(exc)[:4000])
        return False


@shared_task
def check_drift() -> int:
    """Notice out-of-band changes to ready clusters, mark them degraded and re-converge."""
    vcenter = VCenter.objects.order_by("pk").first()
    if vcenter is None:
        return 0
    drifted = 0
    with Driver(vcenter_config(vcenter)) as drv:
        for cluster in VirtualCluster.objects.filter(state=S.READY).select_related("tenant"):
            changes = converge.preview(drv, cluster_intent(cluster, vcenter))
            if changes:
                summary = "; ".join(str(c) for c in changes[:5])
                tenant_services.set_observed(cluster, S.DEGRADED, f"Drift: {summary}")
                reconcile_cluster.delay(cluster.pk)
                drifted += 1
    return drifted
