"""Site-admin pages: fabrics with their partitions, agent, generations, drift and the hardening check."""

from django.contrib import messages
from django.db.models import F
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from core.pages import render_page
from core.paging import paginate
from fabrics import hardening, services
from fabrics.api import with_counts
from fabrics.models import Fabric, PartitionKey
from tenants.access import staff_member_required


@staff_member_required
def fabric_list(request):
    """Every fabric: partitions, the agent's last report, applied vs desired generation, hardening."""
    pager = paginate(request, with_counts(Fabric.objects.defer("last_report", "desired")))
    rows = [{"fabric": f, "protected": hardening.protected(f.sm)} for f in pager.rows]
    context = {"rows": rows, "pager": pager, "warning": hardening.WARNING}
    return render_page(request, "fabrics/fabric_list.html", context)


@staff_member_required
def fabric_detail(request, pk):
    """A fabric: settings, hosts and pools on it, shared ports, the hardening check, the tenants' partitions."""
    fabrics = with_counts(Fabric.objects.defer("last_report", "desired"))
    # the schemas its agent reads, out of the (large) report in the same query
    fabric = get_object_or_404(fabrics.annotate(agent_reads=F("last_report__reads")), pk=pk)
    partitions = PartitionKey.objects.filter(fabric=fabric, released__isnull=True).select_related("tenant")
    pager = paginate(request, partitions.order_by("pkey"))
    context = {"fabric": fabric, "pager": pager, "partitions": pager.rows, "facts": hardening.facts(fabric.sm),
               "protected": hardening.protected(fabric.sm), "warning": hardening.WARNING,
               "hosts": fabric.host_links.select_related("host")[:200],
               "pools": fabric.pool_links.select_related("pool")[:200], "shared": fabric.shared_ports.all()[:200],
               "created_token": request.session.pop("fabric_join_token", None)}  # fmt: skip
    return render_page(request, "fabrics/fabric_detail.html", context)


@staff_member_required
@require_POST
def join_token_create(request, pk):
    """Mint a one-time join token for the fabric's agent; shown once on the fabric's page."""
    fabric = get_object_or_404(Fabric, pk=pk)
    _, raw = services.create_join_token(fabric)
    request.session["fabric_join_token"] = raw
    messages.success(request, f"Join token for {fabric} created; copy it now, it is shown once.")
    return redirect("fabrics:fabric-detail", pk=fabric.pk)
