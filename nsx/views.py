"""NSX pages: the manager's reachability check, queued from the vCenter's page (site admins)."""

from django.shortcuts import get_object_or_404
from django.urls import reverse

from core.views import ObjectActionView
from nsx import services
from nsx.models import NsxManager
from tenants.access import staff_member_required


class ManagerCheckView(ObjectActionView):
    """Queue a reachability check for the worker; the vCenter's page shows its outcome once it has run."""

    decorators = (staff_member_required,)

    def get_object(self, request, pk):
        return get_object_or_404(NsxManager.objects.select_related("vcenter"), pk=pk)

    def perform(self, request, manager):
        return services.queue_check(manager)

    def success_message(self, manager, result) -> str:
        return f"Check of {manager} queued; reload the page in a moment."

    def get_success_url(self, request, manager, result=None) -> str:
        return reverse("vsphere:vcenter-detail", kwargs={"pk": manager.vcenter.pk})
