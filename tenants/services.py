"""The only way intent about tenants and clusters changes: validated, audited, compare-and-set."""

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.services import record, snapshot
from core.errors import Conflict, Forbidden, InvalidRequest, NotOffered
from core.rows import locked
from tenants import hooks, notifications, offers, quotas, realizers, signals
from tenants.access import can_decide, forget_memberships, is_owner, is_site_admin, require_member
from tenants.choices import (
    EXTENSION_MOVES,
    LEASE_STATES,
    MOVES,
    REQUEST_STATES,
    VMXNET3_DATA_PATHS,
    ClusterState,
    DataPath,
    ExtensionState,
    GpuMode,
    MembershipSource,
    NicType,
    Role,
)
from tenants.models import LeaseExtension, Membership, Quota, Tenant, VirtualCluster
from tenants.network import network_changed

S = ClusterState
EDITABLE_FIELDS = (
    "name", "workload_class", "worker_count", "vcpus_per_node", "memory_gb_per_node", "login_node",
    "interconnect", "network_mode", "data_path", "nic_type", "gpu_mode", "gpus_per_worker", "vgpu_profile",
    "lease_end", "justification",
)  # fmt: skip


def create_tenant(slug: str, name: str, description: str = "", owner=None) -> Tenant:
    """Create a tenant with its default quota (and, via the signal, its default network policy)."""
    with transaction.atomic():
        if Tenant.objects.filter(slug=slug).exists():
            raise InvalidRequest(f"A tenant with slug '{slug}' already exists.", field="slug")
        tenant = Tenant.objects.create(slug=slug, name=name, description=description)
        quota = Quota.objects.create(tenant=tenant)
        record("tenant.create", tenant, after=snapshot(tenant), tenant=tenant)
        record("quota.create", quota, after=snapshot(quota), tenant=tenant)
        if owner is not None:
            set_membership(tenant, owner, Role.OWNER)  # type: ignore[arg-type]  # TextChoices: no Django stubs
        signals.tenant_created.send(sender=Tenant, tenant=tenant)
    return tenant


def update_tenant(tenant: Tenant, **fields) -> Tenant:
    """Change a tenant's name or description (its slug never changes: names in vCenter and on nodes carry it)."""
    with transaction.atomic():
        # The caller's copy may be stale: saving it would undo a network generation bumped meanwhile.
        tenant = locked(tenant)
        if fields.get("slug", tenant.slug) != tenant.slug:
            raise InvalidRequest("A tenant's slug never changes: its VMs' and port groups' names carry it.", "slug")
        before = snapshot(tenant)
        for field, value in fields.items():
            setattr(tenant, field, value)
        tenant.full_clean()
        tenant.save()
        record("tenant.update", tenant, before=before, after=snapshot(tenant), tenant=tenant)
    return tenant


def update_quota(quota: Quota, **limits) -> Quota:
    """Change a tenant's limits (site admins only, checked by the caller's permission)."""
    with transaction.atomic():
        quota = Quota.objects.select_for_update().get(pk=quota.pk)
        before = snapshot(quota)
        for field, value in limits.items():
            setattr(quota, field, value)
        quota.save()
        record("quota.update", quota, before=before, after=snapshot(quota), tenant=quota.tenant_id)
    return quota


def set_quota(tenant: Tenant, **limits) -> Quota:
    """Set a tenant's limits (recreating a missing quota row first)."""
    with transaction.atomic():
        return update_quota(quotas.locked_quota(tenant.pk), **limits)


NOT_ADDABLE = (
    "No user of that name can be added by you: they sign in to Enclave once first; site accounts cannot "
    "be added, and a member of another tenant is added by a site admin."
)


def addable_user(username: str, by, tenant: Tenant):
    """The active, non-break-glass user of that name; an unknown and a refused name get the same error.

    A tenant owner adds only users of no other tenant: a member shared with another tenant limits that
    tenant's overlays on node pools both use (their accounts must not clash), so it takes a site admin.
    """
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None or username in settings.BREAK_GLASS_USERS:
        raise InvalidRequest(NOT_ADDABLE, field="username")
    elsewhere = Membership.objects.filter(user=user).exclude(tenant=tenant)
    already = Membership.objects.filter(user=user, tenant=tenant)
    if not is_site_admin(by) and elsewhere.exists() and not already.exists():  # a role change is no addition
        raise InvalidRequest(NOT_ADDABLE, field="username")
    return user


def set_membership(
    tenant: Tenant,
    user,
    role: str,
    source: str = MembershipSource.LOCAL,  # type: ignore[assignment]  # TextChoices
) -> Membership:
    """Add a user to a tenant or change their role (a change by hand makes a directory membership local)."""
    with transaction.atomic():
        membership = Membership.objects.select_for_update().filter(tenant=tenant, user=user).first()
        if membership is not None and membership.role == role and membership.source == source:
            return membership
        before = snapshot(membership) if membership else None
        if membership is None:
            hooks.check_membership(tenant, user)
            membership = Membership.objects.create(tenant=tenant, user=user, role=role, source=source)
            network_changed([tenant])  # the member's UID on the tenant's nodes
        else:
            if membership.role == Role.OWNER and role != Role.OWNER:
                _keep_an_owner(tenant.pk)
            membership.role, membership.source = role, source
            membership.save(update_fields=["role", "source"])
        forget_memberships()
        action = "membership.update" if before else "membership.create"
        record(action, membership, before=before, after=snapshot(membership), tenant=tenant)
    return membership


def _keep_an_owner(tenant_id: int) -> None:
    """Refuse to take the tenant's last owner away (the owners are locked until the caller commits)."""
    owners = Membership.objects.select_for_update().filter(tenant_id=tenant_id, role=Role.OWNER)
    if len(owners) <= 1:
        raise Conflict("A tenant must keep at least one owner.")


def remove_membership(membership: Membership) -> None:
    """Remove a user from a tenant; the last owner cannot be removed."""
    with transaction.atomic():
        if membership.role == Role.OWNER:
            _keep_an_owner(membership.tenant_id)
        record("membership.delete", membership, before=snapshot(membership), tenant=membership.tenant_id)
        membership.delete()
        forget_memberships()
        network_changed([membership.tenant_id])


def create_cluster(tenant: Tenant, user, data: dict, submit: bool = False) -> VirtualCluster:
    """Create a cluster request as a draft, optionally submitting it in the same transaction."""
    require_member(user, tenant)
    _check_lease(data["lease_end"])
    with transaction.atomic():
        cluster = VirtualCluster(tenant=tenant, requested_by=user, **_editable(data))
        check_fields(cluster, EDITABLE_FIELDS)
        check_request(cluster)
        try:
            with transaction.atomic():
                cluster.save()
        except IntegrityError as exc:
            raise _integrity(exc, cluster.name) from None
        record("cluster.create", cluster, after=_cluster_snapshot(cluster), tenant=tenant)
        if submit:
            cluster = submit_cluster(cluster, user)
    return cluster


def update_draft(cluster: VirtualCluster, user, data: dict) -> VirtualCluster:
    """Edit a cluster request while it is still a draft."""
    if cluster.requested_by_id != user.pk and not is_owner(user, cluster.tenant_id):
        raise Forbidden("Only the requester or a tenant owner may edit this request.")
    if "lease_end" in data:
        _check_lease(data["lease_end"])
    with transaction.atomic():
        before = _cluster_snapshot(cluster)
        changes = _editable(data)
        edited = VirtualCluster(**{**{f: getattr(cluster, f) for f in EDITABLE_FIELDS}, **changes})
        check_fields(edited, changes)
        check_request(edited)
        hooks.check_change(cluster, changes)
        try:
            with transaction.atomic():
                updated = VirtualCluster.objects.filter(pk=cluster.pk, state=S.DRAFT).update(
                    **changes, updated=timezone.now()
                )
        except IntegrityError as exc:
            raise _integrity(exc, changes.get("name")) from None
        if not updated:
            raise Conflict(f"Only drafts can be edited; this request is {_state_of(cluster)}.")
        cluster.refresh_from_db()
        record("cluster.update", cluster, before=before, after=_cluster_snapshot(cluster), tenant=cluster.tenant_id)
    return cluster


def submit_cluster(cluster: VirtualCluster, user) -> VirtualCluster:
    """Submit a draft: to the PI for endorsement, or straight to site admins if the user is an owner."""
    require_member(user, cluster.tenant_id)
    refuse_unrealizable(cluster)
    owner = is_owner(user, cluster.tenant_id)
    target = S.ENDORSED if owner else S.SUBMITTED
    fields = {"endorsed_by": user} if owner else {}
    return _transition(cluster, "cluster.submit", target, quota_pending=True, **fields)


def endorse_cluster(cluster: VirtualCluster, user) -> VirtualCluster:
    """A tenant owner endorses a member's request, passing it to site admins."""
    if not is_owner(user, cluster.tenant_id):
        raise Forbidden("Only an owner (PI) of the tenant may endorse requests.")
    return _transition(cluster, "cluster.endorse", S.ENDORSED, endorsed_by=user)


def approve_cluster(cluster: VirtualCluster, user, site=None) -> VirtualCluster:
    """A site admin approves an endorsed request: the site's realizer reserves, reconciliation is queued.

    `site` names where the cluster goes (e.g. a vCenter); without it the only registered site is used.
    """
    if not is_site_admin(user):
        raise Forbidden("Only site admins may approve requests.")
    with transaction.atomic():
        placement = None
        if VirtualCluster.objects.filter(pk=cluster.pk, state=S.ENDORSED).exists():  # else _transition refuses
            cluster = VirtualCluster.objects.select_related("tenant").get(pk=cluster.pk)
            realizer, chosen = realizers.place(cluster, site)
            # The site's reservations (segment, VFs, addresses) commit or roll back with the approval.
            placement = realizer.reserve(cluster, user, chosen)
            realizers.held_changed(cluster)
        return _transition(cluster, "cluster.approve", S.APPROVED, quota_pending=False, decided_by=user, bump=True,
                           placement=placement)  # fmt: skip


def reject_cluster(cluster: VirtualCluster, user, reason: str) -> VirtualCluster:
    """Reject a pending request with a reason (owners at submitted, site admins at any pending state)."""
    reason = (reason or "").strip()
    if not reason:
        raise InvalidRequest("A rejection needs a reason.", field="reason")
    if not can_decide(user, cluster):
        raise Forbidden("Only a tenant owner or a site admin may reject this request.")
    allowed = None if is_site_admin(user) else {S.SUBMITTED}
    return _transition(
        cluster, "cluster.reject", S.REJECTED, from_states=allowed, decided_by=user, rejection_reason=reason[:4000]
    )


def decommission_cluster(cluster: VirtualCluster, user) -> VirtualCluster:
    """End a cluster: pending requests are withdrawn, realized ones are torn down by the reconciler."""
    if cluster.requested_by_id != user.pk and not can_decide(user, cluster):
        raise Forbidden("Only the requester, a tenant owner or a site admin may decommission.")
    if cluster.state in REQUEST_STATES:
        return _transition(cluster, "cluster.withdraw", S.RETIRED)
    return _transition(cluster, "cluster.decommission", S.DECOMMISSIONING, bump=True)


def change_lease(cluster: VirtualCluster, user, lease_end: datetime.date, justification: str = ""):
    """Move the lease end: within the site's maximum at once (the cluster), past it as an extension request
    that needs a justification and a PI's or site admin's approval (the LeaseExtension)."""
    if lease_end > max_lease_end() and (justification or "").strip():
        return request_extension(cluster, user, lease_end, justification)
    return extend_lease(cluster, user, lease_end)


def extend_lease(cluster: VirtualCluster, user, lease_end: datetime.date) -> VirtualCluster:
    """Move the lease end later, up to the site's maximum (requester, owner or site admin)."""
    _check_extender(cluster, user, lease_end)
    if lease_end > max_lease_end():
        raise InvalidRequest(
            f"Leases run at most {settings.LEASE_MAX_DAYS} days, to {max_lease_end()}. To keep the cluster "
            "longer, give a justification: the extension then waits for a PI's or a site admin's approval.",
            field="lease_end",
        )
    hooks.check_change(cluster, {"lease_end": lease_end})
    return _transition(cluster, "cluster.extend_lease", None, lease_end=lease_end)


def request_extension(cluster: VirtualCluster, user, lease_end: datetime.date, justification: str) -> LeaseExtension:
    """Ask for a lease past the site's maximum; a PI or site admin decides (one pending request per cluster)."""
    _check_extender(cluster, user, lease_end)
    justification = (justification or "").strip()
    if not justification:
        raise InvalidRequest("An extension past the site's maximum needs a justification.", field="justification")
    hooks.check_change(cluster, {"lease_end": lease_end})
    with transaction.atomic():
        current = VirtualCluster.objects.select_for_update().select_related("tenant").get(pk=cluster.pk)
        if current.state not in LEASE_STATES:
            raise Conflict(f"Cannot extend the lease: the cluster is {_state_of(current)}.")
        if current.lease_extensions.filter(state=ExtensionState.PENDING).exists():
            raise Conflict("An extension of this lease already waits for a decision.")
        extension = LeaseExtension.objects.create(
            cluster=current, lease_end=lease_end, justification=justification[:4000], requested_by=user
        )
        record("lease_extension.request", extension, after=snapshot(extension), tenant=current.tenant_id)
        notifications.extension_requested(extension)
    return extension


def decide_extension(extension: LeaseExtension, user, approve: bool, reason: str = "") -> LeaseExtension:
    """A PI of the tenant or a site admin approves (the lease moves) or rejects (with a reason) an extension.
    Nobody but a site admin decides their own request."""
    cluster = extension.cluster
    if not can_decide(user, cluster):
        raise Forbidden("Only a tenant owner (PI) or a site admin may decide a lease extension.")
    if extension.requested_by_id == user.pk and not is_site_admin(user):
        raise Forbidden("Another owner (PI) or a site admin must decide your own extension request.")
    reason = (reason or "").strip()
    if not approve and not reason:
        raise InvalidRequest("A rejection needs a reason.", field="reason")
    if approve:  # an extension asked for before a bound applied still may not pass it
        hooks.check_change(cluster, {"lease_end": extension.lease_end})
    action = "lease_extension.approve" if approve else "lease_extension.reject"
    allowed_from, to_state = EXTENSION_MOVES[action]
    with transaction.atomic():
        current = LeaseExtension.objects.select_for_update().select_related("cluster__tenant").get(pk=extension.pk)
        if current.state not in allowed_from:
            raise Conflict(f"This extension was already {current.get_state_display().lower()}.")
        before = snapshot(current)
        LeaseExtension.objects.filter(pk=current.pk, state=current.state).update(
            state=to_state, decided_by=user, decision_reason=reason[:4000], decided=timezone.now()
        )
        current.refresh_from_db()
        record(action, current, before=before, after=snapshot(current), tenant=cluster.tenant_id, message=reason)
        if approve:
            _transition(cluster, "cluster.extend_lease", None, lease_end=current.lease_end)
        notifications.extension_decided(current)
    return current


def pending_extension(cluster: VirtualCluster) -> LeaseExtension | None:
    return cluster.lease_extensions.filter(state=ExtensionState.PENDING).select_related("requested_by").first()


def max_lease_end() -> datetime.date:
    """The latest lease end anyone may set without an approved extension."""
    return timezone.localdate() + datetime.timedelta(days=settings.LEASE_MAX_DAYS)


def lease_limit(cluster: VirtualCluster) -> tuple[datetime.date, str] | None:
    """The latest lease end the cluster may ever get (even approved) and why, where something bounds it."""
    return min(hooks.lease_limits(cluster), default=None)


def _check_extender(cluster: VirtualCluster, user, lease_end: datetime.date) -> None:
    if cluster.requested_by_id != user.pk and not can_decide(user, cluster):
        raise Forbidden("Only the requester, a tenant owner or a site admin may extend the lease.")
    if lease_end <= timezone.localdate():
        raise InvalidRequest("The lease end must be a date in the future.", field="lease_end")
    if lease_end <= cluster.lease_end:  # a conflict with state: another user may just have extended it
        raise Conflict(f"The new lease end must be after the current one ({cluster.lease_end}).", field="lease_end")


RESIZABLE = ("worker_count", "interconnect")


def resize_cluster(cluster: VirtualCluster, user, **changes) -> VirtualCluster:
    """Day 2: scale workers up or down, or add/remove SR-IOV, on a live cluster (owners and admins)."""
    if not can_decide(user, cluster):
        raise Forbidden("Only a tenant owner or a site admin may resize a cluster.")
    changes = {k: v for k, v in changes.items() if k in RESIZABLE and v is not None}
    if not changes:
        raise InvalidRequest("Give a new worker_count or interconnect.")
    with transaction.atomic():
        current = VirtualCluster.objects.select_for_update().select_related("tenant").get(pk=cluster.pk)
        if current.state not in MOVES["cluster.resize"][0]:
            raise Conflict(f"Only live clusters can be resized; this one is {_state_of(current)}.")
        before = _cluster_snapshot(current)
        hooks.check_change(current, changes)
        for field, value in changes.items():
            setattr(current, field, value)
        quotas.check_fits(current, include_pending=False)
        # The site takes what the new shape needs (more VFs, addresses) or refuses the resize.
        realizers.for_cluster(current).reserve(current, user, realizers.placement_of(current).site)
        realizers.held_changed(current)
        VirtualCluster.objects.filter(pk=current.pk, state=current.state).update(
            **changes, generation=current.generation + 1, updated=timezone.now()
        )
        current.refresh_from_db()
        record("cluster.resize", current, before=before, after=_cluster_snapshot(current), tenant=current.tenant_id)
        realizers.queue(current)
    return current


def expire_lease(cluster: VirtualCluster) -> VirtualCluster | None:
    """Begin decommissioning a cluster whose lease has ended (run by the periodic task)."""
    try:
        return _transition(cluster, "cluster.lease_expired", S.DECOMMISSIONING, bump=True)
    except Conflict:
        return None


def set_observed(cluster: VirtualCluster, state: str, message: str = "", observed_generation=None):
    """Record what a reconciler observed (state and message); used by workers, audited."""
    fields = {"status_message": message[:4000]}
    if observed_generation is not None:
        fields["observed_generation"] = observed_generation
    return _transition(cluster, f"cluster.{state}", state, **fields)


def _transition(cluster, action, to_state, *, from_states=None, quota_pending=None, bump=False,
                notify=True, placement=None, **fields):  # fmt: skip
    """Compare-and-set the cluster's state along an allowed move (choices.MOVES), audit, queue on commit.

    `placement` (the approval's): its site kind is stored on the cluster, its site and segment by the realizer.
    """
    allowed_from, allowed_to = MOVES[action]
    if to_state not in allowed_to or (from_states is not None and not set(from_states) <= allowed_from):
        raise ValueError(f"{action} to {to_state} is not a move of the cluster state machine")
    from_states = allowed_from if from_states is None else from_states
    with transaction.atomic():
        if quota_pending is not None:
            quotas.check_fits(cluster, include_pending=quota_pending)  # locks the tenant's quota row
        current = VirtualCluster.objects.select_for_update().get(pk=cluster.pk)
        if current.state not in from_states:
            raise Conflict(f"Cannot {action.split('.')[-1].replace('_', ' ')}: the request is {_state_of(current)}.")
        before = _cluster_snapshot(current)
        changes = dict(fields, updated=timezone.now())
        if placement is not None:
            changes["site_kind"] = placement.site_kind
        if to_state is not None:
            changes["state"] = to_state
        if bump:
            changes["generation"] = current.generation + 1
        VirtualCluster.objects.filter(pk=current.pk, state=current.state).update(**changes)
        current.refresh_from_db()
        if placement is not None:
            realizers.get(placement.site_kind).store(current, placement)
        record(action, current, before=before, after=_cluster_snapshot(current), tenant=current.tenant_id)
        if to_state is not None and to_state not in LEASE_STATES:
            _withdraw_extensions(current)
        if notify and to_state is not None and before["state"] != to_state:
            notifications.state_changed(current, action, since=before["observed_generation"])
        if bump:
            realizers.queue(current)
    return current


def _withdraw_extensions(cluster: VirtualCluster) -> None:
    """Close a pending lease extension of a cluster that is going or gone: nobody need decide it any more."""
    allowed_from, to_state = EXTENSION_MOVES["lease_extension.withdraw"]
    for extension in LeaseExtension.objects.select_for_update().filter(cluster=cluster, state__in=allowed_from):
        before = snapshot(extension)
        extension.state, extension.decided = to_state, timezone.now()
        extension.decision_reason = f"The cluster is {_state_of(cluster)}."
        extension.save(update_fields=["state", "decided", "decision_reason"])
        record("lease_extension.withdraw", extension, before=before, after=snapshot(extension),
               tenant=cluster.tenant_id)  # fmt: skip


def _cluster_snapshot(cluster: VirtualCluster) -> dict:
    """The audit's view of a cluster: its fields, and the site and segment its realizer placed it on."""
    placed = realizers.placement_of(cluster)
    return snapshot(cluster) | {"site": placed.site_id, "segment": placed.segment_id}


def _state_of(cluster) -> str:
    return ClusterState(cluster.state).label.lower()


def _editable(data: dict) -> dict:
    return {k: v for k, v in data.items() if k in EDITABLE_FIELDS}


def _integrity(exc: IntegrityError, name) -> Exception:
    """A taken name is the requester's to fix; any other constraint failing is a bug, not their input."""
    if "cluster_name_unique_per_tenant" in str(exc):
        return InvalidRequest(f"A cluster named '{name}' already exists.", field="name")
    return exc


def refuse_unrealizable(cluster: VirtualCluster) -> None:
    """Refuse, naming why, a request no registered site can realize (an attachment, data path or GPU it lacks)."""
    reasons = offers.refusals(cluster)
    if reasons:
        raise NotOffered(reasons)


def check_fields(cluster: VirtualCluster, names) -> None:
    """Each named field against the model's grammar (names reach vSphere and nodes), whoever called."""
    others = [f.name for f in VirtualCluster._meta.fields if f.name not in names]
    try:
        cluster.clean_fields(exclude=others)
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise InvalidRequest(messages, field=field) from None


def check_request(cluster: VirtualCluster) -> None:
    """Fields that only make sense together: GPUs per worker with a GPU mode, a vGPU profile with vGPU mode,
    the enhanced or offloaded data path with VMXNET3."""
    mode, count, profile = cluster.gpu_mode, cluster.gpus_per_worker, cluster.vgpu_profile
    if mode == GpuMode.NONE and (count or profile):
        raise InvalidRequest("Choose a GPU mode to ask for GPUs.", field="gpu_mode")
    if mode != GpuMode.NONE and not count:
        raise InvalidRequest("Give the number of GPUs per worker (1 or more).", field="gpus_per_worker")
    if mode == GpuMode.VGPU and not profile:
        raise InvalidRequest("Choose a vGPU profile.", field="vgpu_profile")
    if mode == GpuMode.PASSTHROUGH and profile:
        raise InvalidRequest("A vGPU profile applies to vGPU mode only; whole GPUs have none.", field="vgpu_profile")
    if cluster.data_path in VMXNET3_DATA_PATHS and cluster.nic_type != NicType.VMXNET3:
        what = DataPath(cluster.data_path).label
        raise InvalidRequest(f"{what} runs on VMXNET3 adapters only; choose VMXNET3.", field="nic_type")


def _check_lease(lease_end: datetime.date) -> None:
    if lease_end <= timezone.localdate():
        raise InvalidRequest("The lease end must be a date in the future.", field="lease_end")
    if lease_end > max_lease_end():
        raise InvalidRequest(
            f"Leases run at most {settings.LEASE_MAX_DAYS} days: choose {max_lease_end()} or earlier "
            "(a longer lease can be asked for later as an extension, with a justification).",
            field="lease_end",
        )
