"""NSX pages: the manager's reachability check, queued from the vCenter's page (site admins)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from nsx import services
from nsx.models import NsxManager
from tenants.access import staff_member_required


@staff_member_required
@require_POST
def manager_check(request, pk):
    """Queue a reachability check for the worker; the vCenter's page shows its outcome once it has run."""
    manager = get_object_or_404(NsxManager, pk=pk)
    services.queue_check(manager)
    messages.success(request, f"Check of {manager} queued; reload the page in a moment.")
    return redirect("vsphere:vcenter-detail", pk=manager.vcenter_id)
