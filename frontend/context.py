"""Template context shared by every page."""

from netpolicy.choices import SegmentState
from netpolicy.models import Segment
from tenants.access import is_site_admin, tenant_ids
from tenants.choices import ClusterState, Role
from tenants.models import LeaseExtension, VirtualCluster


def waiting_for(user, owned: list | None = None) -> dict:
    """What waits for this user's decision, counted in a constant number of queries (the home panel, the nav)."""
    admin = is_site_admin(user)
    owned = list(tenant_ids(user, Role.OWNER)) if owned is None else owned
    counts = {"endorse": 0, "approve": 0, "segments": 0, "extensions": 0}
    if owned:
        counts["endorse"] = VirtualCluster.objects.filter(state=ClusterState.SUBMITTED, tenant__in=owned).count()
    extensions = LeaseExtension.objects.waiting()
    if admin:
        counts["approve"] = VirtualCluster.objects.filter(state=ClusterState.ENDORSED).count()
        counts["segments"] = Segment.objects.filter(state=SegmentState.REQUESTED).count()
        counts["extensions"] = extensions.count()
    elif owned:
        counts["extensions"] = extensions.filter(cluster__tenant__in=owned).exclude(requested_by=user).count()
    counts["total"] = sum(counts.values())
    return counts


def navigation(request):
    """Counts for the navigation bar and the home page's panel: what waits for this user's decision."""
    user = getattr(request, "user", None)
    if not (user and user.is_authenticated):
        return {}
    owned = list(tenant_ids(user, Role.OWNER))  # read once: the counts and the menu both need it
    waiting, admin = waiting_for(user, owned), is_site_admin(user)
    # Approvals (endorse, approve, extensions) are for PIs of some tenant and site admins; members decide nothing.
    decider = admin or bool(owned)
    return {"nav_waiting": waiting["total"], "waiting": waiting, "is_site_admin": admin, "is_decider": decider}
