"""Template context shared by every page."""

from tenants.access import is_site_admin
from tenants.notifications import waiting_for


def navigation(request):
    """Counts for the navigation bar and the home page's panel: what waits for this user's decision."""
    user = getattr(request, "user", None)
    if not (user and user.is_authenticated):
        return {}
    waiting = waiting_for(user)
    return {"nav_waiting": waiting["total"], "waiting": waiting, "is_site_admin": is_site_admin(user)}
