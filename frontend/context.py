"""Template context shared by every page."""

from tenants.access import is_site_admin
from tenants.choices import Role
from tenants.models import Membership
from tenants.notifications import waiting_for


def navigation(request):
    """Counts for the navigation bar and the home page's panel: what waits for this user's decision."""
    user = getattr(request, "user", None)
    if not (user and user.is_authenticated):
        return {}
    waiting, admin = waiting_for(user), is_site_admin(user)
    # Approvals (endorse, approve, extensions) are for PIs of some tenant and site admins; members decide nothing.
    decider = admin or Membership.objects.filter(user=user, role=Role.OWNER).exists()
    return {"nav_waiting": waiting["total"], "waiting": waiting, "is_site_admin": admin, "is_decider": decider}
