"""One tenant network per user and node: nobody may belong to two tenants that share a node pool.

A login session or job step enters exactly one VRF, chosen by its UID. A UID in two tenants on one
pool has no right answer, so node documents leave it out of both (fail closed) and the user is
locked out of both. Rather than let that happen silently, adding such a membership, or a segment
that creates the overlap, is refused. Admins are told which tenant and pool; others are not told
the names of tenants they cannot see. Pool rows are locked so concurrent changes cannot both pass.
"""

from agents.models import NodePool
from audit.context import ActorKind, current_actor
from core.errors import Conflict
from netpolicy.choices import SegmentKind
from netpolicy.models import LIVE, RELEASED_STATES, Segment
from tenants.models import Membership, Tenant

WHY = "a login session enters only one tenant network per node"


def _viewer_is_admin() -> bool:
    """System, worker and agent actors, and staff users, may see every tenant's name."""
    actor = current_actor()
    if actor.kind != ActorKind.USER:
        return True
    user = getattr(actor.request, "user", None)
    return bool(user is not None and user.is_staff)


def _overlays():
    return Segment.objects.filter(LIVE, kind=SegmentKind.OVERLAY, pool_link__isnull=False)


def _lock_pools(pool_ids) -> dict[int, NodePool]:
    return {p.pk: p for p in NodePool.objects.select_for_update().filter(pk__in=pool_ids).order_by("pk")}


def membership_conflicts(tenant: Tenant, user) -> list[tuple[Tenant, NodePool]]:
    """(other tenant, shared pool) for each overlap that adding user to tenant would create."""
    pools = _lock_pools(_overlays().filter(tenant=tenant).values_list("pool_link__pool", flat=True))
    if not pools:
        return []
    others = Membership.objects.filter(user=user).exclude(tenant=tenant).values_list("tenant", flat=True)
    shared = _overlays().filter(tenant__in=others, pool_link__pool__in=pools).select_related("tenant", "pool_link")
    return sorted({(s.tenant, pools[s.pool_link.pool_id]) for s in shared}, key=lambda x: (x[0].slug, x[1].name))


def refuse_membership_overlap(tenant, user) -> None:
    """Refuse adding a user who already belongs to another tenant on one of this tenant's pools."""
    conflicts = membership_conflicts(tenant, user)
    if not conflicts:
        return
    if _viewer_is_admin():
        where = ", ".join(f"{other} on node pool {pool}" for other, pool in conflicts)
        raise Conflict(f"{user} cannot join {tenant}: they belong to {where}, and {WHY}. Remove them from "
                       "the other tenant first, or move one tenant's segments to another node pool.")  # fmt: skip
    raise Conflict(f"{user} cannot join {tenant}: they already belong to another tenant on one of {tenant}'s "
                   f"node pools, and {WHY}. A site admin can resolve this.")  # fmt: skip


def refuse_segment_overlap(instance: Segment) -> None:
    """Refuse a live overlay segment that puts a tenant on a pool where its members meet another tenant."""
    if instance.kind != SegmentKind.OVERLAY or not instance.node_pool_id or instance.state in RELEASED_STATES:
        return
    pool = _lock_pools([instance.node_pool_id])[instance.node_pool_id]
    members = Membership.objects.filter(tenant=instance.tenant_id).values_list("user", flat=True)
    neighbours = (
        _overlays().filter(pool_link__pool=pool).exclude(tenant=instance.tenant_id).values_list("tenant", flat=True)
    )
    shared = (Membership.objects.filter(user__in=members, tenant__in=neighbours)
              .select_related("user", "tenant").order_by("user__username", "tenant__slug"))  # fmt: skip
    if not shared:
        return
    users = ", ".join(sorted({m.user.get_username() for m in shared}))
    tenant = Tenant.objects.get(pk=instance.tenant_id)
    if _viewer_is_admin():
        others = ", ".join(sorted({m.tenant.slug for m in shared}))
        raise Conflict(f"{tenant} cannot use node pool {pool}: its members {users} also belong to {others} "
                       f"there, and {WHY}.")  # fmt: skip
    raise Conflict(f"{tenant} cannot use node pool {pool}: its members {users} also belong to another tenant "
                   f"there, and {WHY}. A site admin can resolve this.")  # fmt: skip
