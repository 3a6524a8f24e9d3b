"""vSphere pages: capacity chart, vCenters, PFs (site admins); plan preview and operation log per cluster."""

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse

from core.errors import InvalidRequest
from core.paging import paginate
from core.views import ObjectActionView, ObjectDetailView, ObjectEditView, ObjectListView, attach_detail
from tenants.access import get_cluster, staff_member_required
from vsphere import services
from vsphere.api import capacity_report
from vsphere.filtersets import PhysicalFunctionFilterSet
from vsphere.models import Host, OperationLog, PhysicalFunction, VCenter
from vsphere.placement import vfs
from vsphere.templatetags.vsphere_tags import ACTIVE_STATES, LOG_TAIL

PF_LABELS = {
    "pci_id": "PCI id", "pnic": "vmnic", "model": "Card model", "link_type": "Link type",
    "firmware_num_vfs": "Firmware NUM_OF_VFS (per card)", "max_vfs": "Enabled VFs on this port (driver max_vfs)",
}  # fmt: skip
PF_FORM_FIELDS = ["host", "pci_id", "pnic", "model", "port", "link_type", "firmware_num_vfs", "max_vfs"]


class _PFFormBase(forms.Form):
    """Add a PF by hand; the service checks the PCI id, duplicates and the firmware rule, in that order."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["host"].queryset = Host.objects.select_related("vcenter").order_by("vcenter__name", "name")
        self.fields["pci_id"].widget.attrs["placeholder"] = "0000:3b:00.0"
        for name, label in PF_LABELS.items():
            self.fields[name].label = label


# A plain form with the model's fields: a ModelForm would run the model's checks before the service's.
PhysicalFunctionForm = type(
    "PhysicalFunctionForm", (_PFFormBase,), forms.fields_for_model(PhysicalFunction, fields=PF_FORM_FIELDS)
)


class CapacityView(ObjectListView):
    """Used and free VFs per PF, grouped by host, as a chart and a table."""

    decorators = (staff_member_required,)
    template_name = "vsphere/capacity.html"
    per_page = 10

    def get_queryset(self, request):
        return VCenter.objects.order_by("name")

    def get_extra_context(self, request, pager) -> dict:
        return {"report": capacity_report(pager.rows)}


class VCenterListView(ObjectListView):
    decorators = (staff_member_required,)
    template_name = "vsphere/vcenter_list.html"
    context_object_name = "vcenters"

    def get_queryset(self, request):
        return VCenter.objects.annotate(host_total=Count("hosts")).order_by("name")


class VCenterDetailView(ObjectDetailView):
    decorators = (staff_member_required,)
    template_name = "vsphere/vcenter_detail.html"
    context_object_name = "vcenter"

    def get_object(self, request, pk):
        return get_object_or_404(VCenter, pk=pk)

    def get_extra_context(self, request, vcenter) -> dict:
        return {
            "nsx": vcenter.nsx,
            "hosts": vfs.capacity_by_host(vcenter),
            "inventory": vcenter.inventory or {},
        }


class VCenterDiscoverView(ObjectActionView):
    """Queue discovery for the worker; the page shows its outcome once it has run."""

    decorators = (staff_member_required,)

    def get_object(self, request, pk):
        return get_object_or_404(VCenter, pk=pk)

    def perform(self, request, vcenter):
        return services.queue_discovery(vcenter)

    def success_message(self, vcenter, result) -> str:
        return f"Discovery of {vcenter} queued; reload this page in a moment."

    def get_success_url(self, request, vcenter, result=None) -> str:
        return reverse("vsphere:vcenter-detail", kwargs={"pk": vcenter.pk})


class PFListView(ObjectEditView):
    """Every PF with its VF usage, and the form to add one by hand."""

    decorators = (staff_member_required,)
    template_name = "vsphere/pf_list.html"

    def get_form(self, request):
        return PhysicalFunctionForm(request.POST or None)

    def save(self, request, form):
        try:
            return services.create_pf(form.cleaned_data)
        except ValidationError as exc:  # the model's own checks, after the service's: shown as the form's errors
            raise InvalidRequest(exc) from exc

    form_error = staticmethod(attach_detail)

    def saved(self, request, pf):
        messages.success(request, f"Physical function {pf} added.")
        return redirect("vsphere:pf-list")

    def get_context(self, request, form=None) -> dict:
        queryset = PhysicalFunction.objects.select_related("host__vcenter").order_by("host__name", "pci_id")
        filterset = PhysicalFunctionFilterSet(request.GET, queryset=vfs.with_used(queryset))
        pager = paginate(request, filterset.qs)
        rows = [(pf, {"used": pf.used_vfs}) for pf in pager.rows]
        return {"form": form, "rows": rows, "filter": filterset, "pager": pager}


class ClusterPlanView(ObjectDetailView):
    """Plan preview for one cluster: asked of the worker, shown when ready (the partial polls meanwhile)."""

    template_name = "vsphere/cluster_plan.html"
    partial_name = "vsphere/partials/plan.html"
    context_object_name = "cluster"

    def get_object(self, request, pk):
        return get_cluster(request.user, pk)

    def get_extra_context(self, request, cluster) -> dict:
        return {"plan": services.request_preview(cluster)}


class ClusterOperationsView(ObjectDetailView):
    """The reconciler's operation log; the htmx partial polls itself while the cluster is busy."""

    template_name = "vsphere/cluster_operations.html"
    partial_name = "vsphere/partials/operation_log.html"
    context_object_name = "cluster"

    def get_object(self, request, pk):
        return get_cluster(request.user, pk)

    def get_extra_context(self, request, cluster) -> dict:
        operations = list(OperationLog.objects.filter(cluster=cluster).order_by("-id")[:LOG_TAIL])  # newest first
        return {"operations": operations, "polling": cluster.state in ACTIVE_STATES or cluster.work_pending}
