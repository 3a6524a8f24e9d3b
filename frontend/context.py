"""Template context shared by every page."""

from netpolicy.choices import SegmentState
from netpolicy.models import Segment
from tenants.access import is_site_admin, tenant_ids
from tenants.choices import ClusterState
from tenants.models import VirtualCluster


def navigation(request):
    """Counts for the navigation bar: requests waiting for this user's decision."""
    user = getattr(request, "user", None)
    if not (user and user.is_authenticated):
        return {}
    waiting = VirtualCluster.objects.none()
    if is_site_admin(user):
        waiting = VirtualCluster.objects.filter(state=ClusterState.ENDORSED)
    owned = tenant_ids(user, "owner")
    if owned:
        waiting = waiting | VirtualCluster.objects.filter(state=ClusterState.SUBMITTED, tenant__in=owned)
    # netpolicy (issue 3): requested segments wait for a site admin's approval too.
    segments = Segment.objects.filter(state=SegmentState.REQUESTED) if is_site_admin(user) else Segment.objects.none()
    return {"nav_waiting": waiting.count() + segments.count(), "is_site_admin": is_site_admin(user)}
