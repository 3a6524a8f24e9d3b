"""Who may see and do what: tenant scoping shared by the API, the UI and the services."""

import functools
from contextlib import contextmanager
from contextvars import ContextVar

from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404

from core.errors import Forbidden, NotFound
from core.viewer_text import SITE_ADMIN, Viewer
from tenants.choices import Role
from tenants.models import Membership, Tenant, VirtualCluster


def is_site_admin(user) -> bool:
    """Site admins are Django staff users."""
    return bool(user and user.is_authenticated and user.is_staff)


# Within one web request a page asks who the user is up to six times (scoping, navigation counts,
# forms); the answer is read once per request. None outside a request: tasks and services read afresh.
_request_memberships: ContextVar[dict | None] = ContextVar("request_memberships", default=None)


@contextmanager
def memberships_read_once():
    """Remember tenant_ids() answers until the block ends (one web request: tenants.middleware)."""
    token = _request_memberships.set({})
    try:
        yield
    finally:
        _request_memberships.reset(token)


def forget_memberships() -> None:
    """Drop this request's remembered answers: a membership changed."""
    remembered = _request_memberships.get()
    if remembered is not None:
        remembered.clear()


def tenant_ids(user, role: str | None = None) -> set[int]:
    """Ids of the tenants the user belongs to (optionally with a given role)."""
    if not (user and user.is_authenticated):
        return set()
    remembered, key = _request_memberships.get(), (user.pk, role)
    if remembered is not None and key in remembered:
        return set(remembered[key])
    memberships = Membership.objects.filter(user=user)
    if role:
        memberships = memberships.filter(role=role)
    ids = set(memberships.values_list("tenant_id", flat=True))
    if remembered is not None:
        remembered[key] = frozenset(ids)
    return ids


def members_among(tenant, user_ids: list[int]) -> set[int]:
    """Which of these users belong to the tenant (one query; notices asks, through its registry)."""
    return set(Membership.objects.filter(tenant=tenant, user__in=user_ids).values_list("user_id", flat=True))


def viewer(user) -> Viewer:
    """Who reads derived text (core.viewer_text): a site admin, or a user with their tenants."""
    if is_site_admin(user):
        return SITE_ADMIN
    return Viewer(frozenset(tenant_ids(user)))


def visible_tenants(user):
    """Tenants the user may see: all for site admins, their own for everyone else."""
    if is_site_admin(user):
        return Tenant.objects.all()
    return Tenant.objects.filter(memberships__user=user).distinct() if user.is_authenticated else Tenant.objects.none()


def scope(queryset, user, tenant_field: str = "tenant"):
    """Restrict a queryset to objects of the user's tenants (site admins see everything)."""
    if is_site_admin(user):
        return queryset
    return queryset.filter(**{f"{tenant_field}__in": tenant_ids(user)})


def visible_clusters(user):
    """The clusters the user may see, with what their pages show."""
    return scope(VirtualCluster.objects.select_related("tenant", "requested_by"), user)


def get_cluster(user, pk) -> VirtualCluster:
    """Another tenant's cluster is a 404, exactly like a missing one."""
    return get_object_or_404(visible_clusters(user), pk=pk)


def _pk(tenant) -> int:
    return getattr(tenant, "pk", tenant)


def is_owner(user, tenant) -> bool:
    """Whether the user is an owner (PI) of the tenant."""
    return _pk(tenant) in tenant_ids(user, Role.OWNER)


def require_member(user, tenant) -> None:
    """Refuse users outside the tenant with a 404, so other tenants' existence is not revealed."""
    if _pk(tenant) not in tenant_ids(user) and not is_site_admin(user):
        raise NotFound("No such tenant.")


def require_owner_or_admin(user, tenant) -> None:
    """Refuse anyone but the tenant's owners and site admins."""
    if not (is_site_admin(user) or is_owner(user, tenant)):
        raise Forbidden("Only a tenant owner or a site admin may do this.")


def can_decide(user, cluster) -> bool:
    """Owners of the cluster's tenant and site admins may decide on its requests."""
    return is_site_admin(user) or is_owner(user, cluster.tenant_id)


def staff_member_required(view):
    """Site admins only: anonymous users go to the login page, everyone else gets a 404."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_site_admin(request.user):
            raise Http404("No such page.")
        return view(request, *args, **kwargs)

    return wrapped
