"""Whose events a reader sees: the tenants app (above audit) answers which tenants a user belongs to.

TenantsConfig.ready() registers its answer; audit never imports tenants. Until something registers,
a user belongs to no tenant here: they see their own actions only (fail closed).
"""

from collections.abc import Callable

from django.db.models import Q

from audit.models import AuditEvent

TENANTS_OF: dict[str, Callable[[object], set[int]]] = {}
# A user's own objects outside every tenant. Other tenant-less events a member's action causes (a fabric's
# new desired document after their resize, say) describe the site, and stay with the site admins.
OWN_OBJECTS = ("users.apitoken", "users.posixaccount", "notices.preference")


def tenants_of(user) -> set[int]:
    """Ids of the tenants every registered answer says the user belongs to."""
    return set().union(*(answer(user) for answer in list(TENANTS_OF.values())))


def visible_events(user):
    """Site admins: every event; others: their tenants' events and what they did to their own account."""
    if user.is_staff:
        return AuditEvent.objects.all()
    mine = Q(object_type__in=OWN_OBJECTS) | Q(object_type="auth.user", object_id=str(user.pk))
    own = Q(actor=user, tenant_id__isnull=True) & mine
    return AuditEvent.objects.filter(Q(tenant_id__in=tenants_of(user)) | own)
