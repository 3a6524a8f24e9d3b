"""Celery tasks: reconcile one cluster (serialized per cluster), discovery, drift check."""

import logging
import threading

import redis
from celery import shared_task
from django.db import transaction

from audit.services import record
from core import leases, readiness, redisconn
from core.errors import ServiceError
from netpolicy import ipam
from tenants import choices as tenant_choices
from tenants import realizers
from tenants import services as tenant_services
from tenants.choices import ClusterState, SiteKind
from tenants.models import VirtualCluster
from vsphere.choices import StepStatus
from vsphere.errors import PermanentError, TransientError
from vsphere.models import VCenter, placement_of
from vsphere.placement import hosts, vfs
from vsphere.placement.reserve import reserve_again, wanted_addresses
from vsphere.plan.capacity import preflight_inventory
from vsphere.plan.network import DECOMMISSION_STATES
from vsphere.reconcile import converge, discovery, nsx_steps, portgroup_filters, previews
from vsphere.reconcile.intent import cluster_intent, inventory, vcenter_config
from vsphere.reconcile.journal import StepLog, started_clones
from vsphere.vim.driver import Driver

log = logging.getLogger(__name__)
S = ClusterState
LIVE_STATES = {S.READY, S.DEGRADED, S.ERROR}  # a new generation of these is provisioned again
CONVERGE_STATES = tenant_choices.LIVE_STATES
LOCK_TTL = 30  # seconds; extended every LOCK_TTL/3 while a run is alive
MAX_RETRIES = 8
PLACED = ("tenant", "placement__site", "placement__segment")  # what a reconcile reads of a cluster
BACKOFF_BASE = 2  # seconds; doubles per retry up to BACKOFF_CAP
BACKOFF_CAP = 300


class ClusterLock:
    """Redis lock per cluster, kept alive while held: a killed worker's lock lapses in LOCK_TTL."""

    def __init__(self, cluster_id: int):
        client = redisconn.client()
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
        with leases.holding(realizers.LEASE, [cluster_id]):  # the sweep leaves a live run alone
            return _reconcile(self, cluster_id)
    finally:
        lock.release()


def _reconcile(task, cluster_id: int) -> str:
    cluster = VirtualCluster.objects.select_related(*PLACED).filter(pk=cluster_id).first()
    if cluster is None:
        return "gone"
    if cluster.state not in CONVERGE_STATES | DECOMMISSION_STATES:
        return f"nothing to do in state {cluster.state}"
    vcenter = placement_of(cluster).site
    if vcenter is None:
        return _fail(cluster, "The cluster is not placed on a vCenter.")
    generation = cluster.generation
    steps = StepLog(cluster, generation)
    try:
        if cluster.state == S.APPROVED or (cluster.state in LIVE_STATES and cluster.observed_generation != generation):
            cluster = tenant_services.set_observed(cluster, S.PROVISIONING, "Reconciling on vSphere")
        if cluster.state not in DECOMMISSION_STATES:
            reserve_again(cluster, vcenter)  # idempotent; clusters approved before addresses existed get theirs
        nsx = nsx_steps.manager_for(cluster, vcenter)
        if nsx is not None and cluster.state not in DECOMMISSION_STATES:
            nsx_steps.realize_network(nsx, cluster, steps)  # the segment's port group exists before VMs attach
        intent = cluster_intent(cluster, vcenter)
        with Driver(vcenter_config(vcenter)) as drv:
            converge.converge(
                drv,
                intent,
                inventory=inventory(vcenter),
                adopt=started_clones(cluster),
                on_step=steps,
                devices=preflight_inventory(vcenter),
            )
        if nsx is not None:
            _after_converge(nsx, cluster, steps)
    except TransientError as exc:
        return _retry(task, cluster, steps, exc)
    except (PermanentError, ServiceError) as exc:
        steps.note(str(exc), StepStatus.FAILED)
        return _fail(cluster, str(exc))
    return _succeed(cluster, generation, steps)


def _after_converge(nsx, cluster: VirtualCluster, steps) -> None:
    """NSX: tag the VMs so the tenant's groups match them, or, once they are gone, release what they used."""
    if cluster.state in DECOMMISSION_STATES:
        nsx_steps.release_network(nsx, cluster)
        steps("nsx-release", "NSX: segment and rules no longer needed removed", StepStatus.DONE)
    else:
        tagged = nsx_steps.tag_vms(nsx, cluster)
        steps("nsx-tags", f"NSX: {tagged} VMs tagged", StepStatus.DONE)


def _succeed(cluster: VirtualCluster, generation: int, steps) -> str:
    cluster.refresh_from_db()
    if cluster.state in DECOMMISSION_STATES:
        with transaction.atomic():
            freed, devs = vfs.release(cluster), hosts.release(cluster)
            record("cluster.vfs_released", cluster, tenant=cluster.tenant_id, message=f"{freed} VFs")
            if devs:
                record("cluster.devices_released", cluster, tenant=cluster.tenant_id, message=f"{devs} devices")
            ipam.release(cluster)
            realizers.held_changed(cluster)  # e.g. the VFs leave the tenant's InfiniBand partition
        if cluster.state == S.DECOMMISSIONING:
            tenant_services.set_observed(cluster, S.RETIRED, "Decommissioned", observed_generation=generation)
        steps.note("decommissioned", StepStatus.DONE)
        return "retired"
    if cluster.generation != generation:
        reconcile_cluster.delay(cluster.pk)  # intent changed meanwhile: converge again
        return "requeued"
    with transaction.atomic():
        # Only now are the removed nodes' NICs gone from vCenter, so their VFs can be reused.
        freed, devs = vfs.release_unwanted(cluster), hosts.release_unwanted(cluster)
        if freed:
            record("cluster.vfs_released", cluster, tenant=cluster.tenant_id, message=f"{freed} VFs (resized)")
        if devs:
            record("cluster.devices_released", cluster, tenant=cluster.tenant_id, message=f"{devs} devices (resized)")
        ipam.release(cluster, keep=wanted_addresses(cluster))
        if freed:
            realizers.held_changed(cluster)
    waiting = readiness.waiting("cluster", cluster)
    if waiting:  # e.g. the fabric has not programmed the VFs' partition yet; its report re-queues this reconcile
        _set_message(cluster, "Realized on vSphere; waiting for " + "; ".join(waiting))
        steps.note("waiting: " + "; ".join(waiting), StepStatus.INFO)
        return "waiting"
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
    leases.take(realizers.LEASE, [cluster.pk], countdown + leases.grace())  # the backoff is not lost work
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
        discovery.discover(vcenter)
        return True
    except (TransientError, PermanentError, OSError) as exc:
        # OSError: an unreadable password_file is a configuration error, shown like the others
        VCenter.objects.filter(pk=vcenter.pk).update(discovery_error=str(exc)[:4000])
        return False


DRIFT_CHECKED = (S.READY, S.DEGRADED)


@shared_task
def check_drift() -> int:
    """Notice out-of-band changes to ready clusters, mark them degraded and re-converge.

    Degraded clusters whose repair is neither queued nor running are checked too (their generation is
    observed, so no sweep finds them): one still drifted in vCenter, or degraded with nothing left to
    wait for (a fabric's re-queue lost), is queued again; one still waiting (its InfiniBand partition)
    is left to what it waits for.
    """
    vcenters = VCenter.objects.filter(placements__cluster__state__in=DRIFT_CHECKED).distinct()
    return sum(_check_drift(vcenter) for vcenter in vcenters)


def _check_drift(vcenter: VCenter) -> int:
    queued = 0
    checked = list(VirtualCluster.objects.filter(placement__site=vcenter, state__in=DRIFT_CHECKED)
                   .select_related(*PLACED))  # fmt: skip
    busy = leases.leased(realizers.LEASE, [c.pk for c in checked if c.state == S.DEGRADED])
    with Driver(vcenter_config(vcenter)) as drv:
        for cluster in (c for c in checked if c.pk not in busy):
            summary = _drift(drv, cluster, vcenter)
            if summary and cluster.state == S.READY:
                tenant_services.set_observed(cluster, S.DEGRADED, f"Drift: {summary}")
            if summary or (cluster.state == S.DEGRADED and not readiness.waiting("cluster", cluster)):
                realizers.realize(cluster.pk)  # leased: the next check leaves a queued repair alone
                queued += 1
    return queued


def _drift(drv, cluster: VirtualCluster, vcenter: VCenter) -> str:
    """What differs between vCenter and the cluster's intent, in a few words ("" when converged)."""
    try:
        changes = converge.preview(drv, cluster_intent(cluster, vcenter))
    except ServiceError as exc:  # e.g. a policy the switch cannot enforce; the reconcile reports it as error
        return str(exc.detail)
    return "; ".join(str(c) for c in changes[:5])


@shared_task(bind=True, max_retries=MAX_RETRIES)
def push_filters(self, tenant_ids=None) -> int:
    """Apply the affected tenants' policies to their port groups' traffic filters (all tenants if None)."""
    changed = 0
    for vcenter in VCenter.objects.filter(placements__cluster__site_kind=SiteKind.VSPHERE).distinct():
        wanted = portgroup_filters.targets(vcenter, tenant_ids)
        if not wanted:
            continue
        try:
            with Driver(vcenter_config(vcenter)) as drv:
                changed += len(portgroup_filters.push(drv, vcenter.datacenter, wanted))
        except TransientError as exc:
            raise self.retry(countdown=min(BACKOFF_BASE * 2**self.request.retries, BACKOFF_CAP), exc=exc) from exc
        except PermanentError as exc:  # the clusters' drift check shows the filter as drift meanwhile
            log.warning("filter push to %s failed: %s", vcenter, exc)
    return changed


def queue_filter_push(tenant_ids) -> None:
    """netpolicy.propagation consumer: policy or its addresses changed for these tenants."""
    push_filters.delay(sorted(tenant_ids) if tenant_ids is not None else None)


@shared_task
def compute_plan(preview_id: int) -> str:
    """A queued plan preview: the dry run against vCenter, stored for the page and the API."""
    preview = previews.compute(preview_id)
    return preview.status if preview else "gone"
