"""Apply what Enclave wants in NSX (the site's part and each tenant's) and record what NSX realized.

Each part is compiled, hashed and compared with what was last applied: an equal digest sends nothing
(a second run issues no PATCH). A change is one hierarchical PATCH holding the part's creates, updates
and deletes, sent while the part's row is locked; a worker killed mid-way leaves the old digest, so the
next run sends the same body again (stable ids: no duplicates).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from audit.services import record
from netpolicy import propagation
from netpolicy.choices import SegmentKind, SegmentState
from netpolicy.ir import build_site, tenant_name
from netpolicy.models import LIVE, Segment
from nsx import bodies, compiler
from nsx.choices import ObjectKind, Realization
from nsx.client import NsxClient, NsxConfig, NsxError, RevisionConflict
from nsx.models import AppliedState, NsxManager, NsxObject
from tenants.choices import LIVE_STATES
from tenants.models import Tenant

CAS_ATTEMPTS = 3
TRACKED = [k for k in ObjectKind if k != ObjectKind.RULE]  # a policy's realization covers its rules
POLL_INTERVAL = 0.25


@dataclass
class Outcome:
    """What one run did and saw: whether it sent a PATCH, and objects NSX has not realized (yet)."""

    patched: int = 0
    errors: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)


def config(manager: NsxManager) -> NsxConfig:
    verify = manager.ca_bundle_path() or True if manager.verify_tls else False
    return NsxConfig(manager.url, manager.username, manager.password, verify)


def target(manager: NsxManager) -> compiler.Target:
    return compiler.Target(manager.domain, manager.transport_zone_path, manager.tier0_path)


def segment_name(segment: Segment) -> str:
    """The segment's NSX display name, which is also its port group's name in vCenter."""
    return f"enclave-{segment.tenant.slug}-seg{segment.pk}"[:80]


def tenant_segments(manager: NsxManager, tenant_id: int):
    """The tenant's live overlay segments on this manager's vSphere cluster."""
    return Segment.objects.filter(LIVE, tenant_id=tenant_id, kind=SegmentKind.OVERLAY, pool_link=None,
                                  vsphere_cluster=manager.vcenter.compute_cluster).exclude(
                                      state=SegmentState.REQUESTED).select_related("tenant").order_by("pk")  # fmt: skip


def wanted(manager: NsxManager, tenant: Tenant) -> bool:
    """A tenant has a part on this manager while it has live clusters or overlay segments on its vCenter."""
    clusters = tenant.clusters.filter(placement__site_id=manager.vcenter.pk, state__in=LIVE_STATES).exists()
    return clusters or tenant_segments(manager, tenant.pk).exists()


def desired_site(manager: NsxManager) -> dict[str, compiler.Desired]:
    return compiler.site_part(build_site([], role_addresses=False), target(manager))


def desired_tenant(manager: NsxManager, tenant: Tenant) -> dict[str, compiler.Desired]:
    """The tenant's objects; nothing once it has nothing on this site (its part is then deleted)."""
    if not wanted(manager, tenant):
        return {}
    site = build_site([tenant], role_addresses=False)  # PolicyError: the tenant's policy cannot be compiled
    specs = [compiler.SegmentSpec(s.pk, segment_name(s), str(s.subnet), s.gateway)
             for s in tenant_segments(manager, tenant.pk)]  # fmt: skip
    clusters = tenant.clusters.filter(placement__site_id=manager.vcenter.pk, state__in=LIVE_STATES).order_by("pk")
    return compiler.tenant_part(site.tenants[0], specs, target(manager), list(clusters.values_list("pk", flat=True)))


def apply(client: NsxClient, manager: NsxManager, tenant: Tenant | None, desired: dict, generation: int = 0) -> bool:
    """Send the part's change if it differs from what was applied; True when a PATCH was sent.

    `generation` is the intent's generation read before `desired` was compiled: a run holding an older
    compile than the one last applied sends nothing (two queued runs may finish out of order).
    """
    with transaction.atomic():
        state, _ = AppliedState.objects.select_for_update().get_or_create(manager=manager, tenant=tenant)
        if generation < state.generation:
            return False
        deletes = set(state.paths) - set(desired)
        digest = compiler.digest(desired, deletes)
        failed = NsxObject.objects.filter(manager=manager, tenant=tenant, state=Realization.ERROR).exists()
        if digest == state.digest and not failed:  # NSX realizes a failed object again when it is sent again
            if generation != state.generation:
                AppliedState.objects.filter(pk=state.pk).update(generation=generation)
            return False
        _patch(client, manager, desired, deletes)
        state.digest, state.paths, state.error, state.applied_at = digest, sorted(desired), "", timezone.now()
        state.generation = generation
        state.save()
        _track(manager, tenant, desired, deletes)
        record("nsx.applied", manager, tenant=tenant.pk if tenant else None,
               message=f"{len(desired)} objects wanted, {len(deletes)} deleted")  # fmt: skip
    return True


def _patch(client: NsxClient, manager: NsxManager, desired: dict, deletes: set[str]) -> None:
    """One hierarchical PATCH; after a 412 the objects' current _revisions are read and sent (compare-and-set)."""
    revisions = {}
    for attempt in range(CAS_ATTEMPTS):
        try:
            client.patch_infra(bodies.hierarchical(desired, deletes, manager.domain, revisions), bool(revisions))
            return
        except RevisionConflict:
            if attempt == CAS_ATTEMPTS - 1:
                raise
            revisions = {p: r for p, r in owned(client, manager).items() if p in desired}


def _track(manager: NsxManager, tenant: Tenant | None, desired: dict, deletes: set[str]) -> None:
    """Every tracked object of the part back to pending (NSX is realizing it again); deleted ones forgotten."""
    NsxObject.objects.filter(manager=manager, path__in=deletes).delete()
    rows = [
        NsxObject(manager=manager, tenant=tenant, path=d.path, kind=d.kind, segment_id=d.segment)
        for d in desired.values()
        if d.kind in TRACKED
    ]
    fields = ["tenant", "segment", "kind", "state", "message", "updated"]
    NsxObject.objects.bulk_create(rows, update_conflicts=True, unique_fields=["manager", "path"], update_fields=fields)


def owned(client: NsxClient, manager: NsxManager) -> dict[str, int]:
    """Every object with Enclave's prefix NSX holds now, with its _revision (rules of Enclave's policies too)."""
    domain = f"/infra/domains/{manager.domain}"
    found: dict[str, int] = {}
    for collection in ("/infra/tier-1s", "/infra/segments", "/infra/services", f"{domain}/groups",
                       f"{domain}/security-policies"):  # fmt: skip
        for item in client.listing(collection):
            if item.get("id", "").startswith(compiler.PREFIX):
                found[f"{collection}/{item['id']}"] = item.get("_revision", 0)
    for policy in [p for p in found if "/security-policies/" in p]:
        for item in client.listing(f"{policy}/rules"):
            found[f"{policy}/rules/{item['id']}"] = item.get("_revision", 0)
    return found


def observe(client: NsxClient, manager: NsxManager, tenant_ids: list[int | None], deadline: float) -> Outcome:
    """Poll the realized state of the parts' objects until each is realized or failed, or the deadline passes."""
    outcome = Outcome()
    rows = list(NsxObject.objects.filter(manager=manager).filter(_tenants(tenant_ids)).exclude(
        state=Realization.REALIZED))  # fmt: skip
    while rows:
        for row in rows:
            row.state, row.message = client.realization(row.path)
            row.save(update_fields=["state", "message", "updated"])
            _mirror_segment(row)
        rows = [r for r in rows if r.state in (Realization.PENDING, Realization.IN_PROGRESS)]
        if not rows or time.monotonic() > deadline:
            break
        time.sleep(POLL_INTERVAL)
    outcome.pending = [r.path for r in rows]
    failed = NsxObject.objects.filter(manager=manager, state=Realization.ERROR).filter(_tenants(tenant_ids))
    outcome.errors = [f"{r.path}: {r.message}" for r in failed]
    return outcome


def _tenants(tenant_ids: list[int | None]) -> Q:
    """The parts' objects: these tenants' (None in the list: the site's too)."""
    query = Q(tenant_id__in=[t for t in tenant_ids if t is not None])
    return query | Q(tenant=None) if None in tenant_ids else query


def _mirror_segment(row: NsxObject) -> None:
    """A segment NSX realized is Ready in Enclave (its generation observed); one NSX refused is in Error."""
    if row.kind != ObjectKind.SEGMENT or row.segment_id is None:
        return
    state = {Realization.REALIZED: SegmentState.READY, Realization.ERROR: SegmentState.ERROR}.get(row.state)
    if not state:
        return
    with transaction.atomic():
        segments = Segment.objects.select_for_update().filter(pk=row.segment_id, state__in=[
            SegmentState.APPROVED, SegmentState.READY, SegmentState.ERROR])  # fmt: skip
        for segment in segments:
            if segment.state != state or segment.observed_generation != segment.generation:
                before = {"state": segment.state, "observed_generation": segment.observed_generation}
                Segment.objects.filter(pk=segment.pk).update(state=state, observed_generation=segment.generation)
                record(f"segment.{state}", segment, before=before, tenant=segment.tenant_id, message=row.message,
                       after={"state": state, "observed_generation": segment.generation})  # fmt: skip


def realize_tenant(
    manager: NsxManager, tenant: Tenant | None, wait: float | None = None, generations: tuple[int, int] | None = None
) -> Outcome:
    """The site's part, then the tenant's (None: only the site's), then their realization (bounded by `wait`)."""
    wait = settings.ENCLAVE_NSX_REALIZE_WAIT if wait is None else wait
    site_generation, tenant_generation = generations or intent_generations(tenant)  # before compiling: see apply()
    with NsxClient(config(manager)) as client:
        patched = apply(client, manager, None, desired_site(manager), site_generation)
        if tenant is not None:
            patched += apply(client, manager, tenant, desired_tenant(manager, tenant), tenant_generation)
        outcome = observe(client, manager, [None, tenant.pk if tenant else None], time.monotonic() + wait)
    outcome.patched = patched
    return outcome


def intent_generations(tenant: Tenant | None) -> tuple[int, int]:
    """The site's generation and the tenant's network generation (0 without a tenant), as they are now."""
    tenant_generation = 0
    if tenant is not None:
        tenant_generation = Tenant.objects.filter(pk=tenant.pk).values_list("network_generation", flat=True).first()
    return propagation.site_generation(), tenant_generation or 0


def tag_vms(manager: NsxManager, tenant: Tenant, cluster_pk: int, roles: dict[str, str]) -> int:
    """Give each named VM the tags its groups match; raises a transient NsxError while NSX lacks one."""
    with NsxClient(config(manager)) as client:
        vms = client.vms(set(roles))
        missing = sorted(set(roles) - set(vms))
        if missing:
            raise NsxError(f"NSX's inventory has no VM {', '.join(missing)} yet", transient=True)
        changed = 0
        for name, role in sorted(roles.items()):
            name_ = tenant_name(tenant.pk)
            tags = compiler.vm_tags(name_, compiler.cluster_tag(name_, cluster_pk), role)
            if _tag_set(vms[name].get("tags") or []) != _tag_set(tags):
                client.set_vm_tags(vms[name]["external_id"], tags)
                changed += 1
    return changed


def _tag_set(tags: list[dict]) -> set[tuple[str, str]]:
    return {(t.get("scope", ""), t.get("tag", "")) for t in tags}
