"""vSphere pages: capacity chart, vCenters, PFs (site admins); plan preview and operation log per cluster."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from portal.errors import ServiceError
from portal.pages import render_page
from portal.paging import paginate
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


@staff_member_required
def capacity(request):
    """Used and free VFs per PF, grouped by host, as a chart and a table."""
    pager = paginate(request, VCenter.objects.order_by("name"), 10)
    return render(request, "vsphere/capacity.html", {"report": capacity_report(pager.rows), "pager": pager})


@staff_member_required
def vcenter_list(request):
    pager = paginate(request, VCenter.objects.annotate(host_total=Count("hosts")).order_by("name"))
    return render(request, "vsphere/vcenter_list.html", {"vcenters": pager.rows, "pager": pager})


@staff_member_required
def vcenter_detail(request, pk):
    vcenter = get_object_or_404(VCenter, pk=pk)
    context = {
        "vcenter": vcenter,
        "nsx": vcenter.nsx_manager(),
        "hosts": vfs.capacity_by_host(vcenter),
        "inventory": vcenter.inventory or {},
    }
    return render(request, "vsphere/vcenter_detail.html", context)


@staff_member_required
@require_POST
def vcenter_discover(request, pk):
    """Queue discovery for the worker; the page shows its outcome once it has run."""
    vcenter = get_object_or_404(VCenter, pk=pk)
    services.queue_discovery(vcenter)
    messages.success(request, f"Discovery of {vcenter} queued; reload this page in a moment.")
    return redirect("vsphere:vcenter-detail", pk=pk)


@staff_member_required
def pf_list(request):
    """Every PF with its VF usage, and the form to add one by hand."""
    form = PhysicalFunctionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            pf = services.create_pf(form.cleaned_data)
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.detail)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, f"Physical function {pf} added.")
            return redirect("vsphere:pf-list")
    queryset = PhysicalFunction.objects.select_related("host__vcenter").order_by("host__name", "pci_id")
    filterset = PhysicalFunctionFilterSet(request.GET, queryset=vfs.with_used(queryset))
    pager = paginate(request, filterset.qs)
    rows = [(pf, {"used": pf.used_vfs}) for pf in pager.rows]
    return render(request, "vsphere/pf_list.html", {"form": form, "rows": rows, "filter": filterset, "pager": pager})


@login_required
def cluster_plan(request, pk):
    """Plan preview for one cluster: asked of the worker, shown when ready (the partial polls meanwhile)."""
    cluster = get_cluster(request.user, pk)
    context = {"cluster": cluster, "plan": services.request_preview(cluster)}
    return render_page(request, "vsphere/cluster_plan.html", context, "vsphere/partials/plan.html")


@login_required
def cluster_operations(request, pk):
    """The reconciler's operation log; the htmx partial polls itself while the cluster is busy."""
    cluster = get_cluster(request.user, pk)
    operations = list(OperationLog.objects.filter(cluster=cluster).order_by("-id")[:LOG_TAIL])[::-1]
    polling = cluster.state in ACTIVE_STATES or cluster.work_pending
    context = {"cluster": cluster, "operations": operations, "polling": polling}
    return render_page(request, "vsphere/cluster_operations.html", context, "vsphere/partials/operation_log.html")
