"""Site-admin pages: fabrics with their partitions, agent, generations, drift and the hardening check."""

from django.db.models import F
from django.shortcuts import get_object_or_404
from django.urls import reverse

from core.paging import paginate
from core.views import ObjectActionView, ObjectDetailView, ObjectListView
from fabrics import hardening, services
from fabrics.api import with_counts
from fabrics.models import Fabric, PartitionKey
from tenants.access import staff_member_required


class FabricListView(ObjectListView):
    """Every fabric: partitions, the agent's last report, applied vs desired generation, hardening."""

    decorators = (staff_member_required,)
    template_name = "fabrics/fabric_list.html"
    context_object_name = "fabrics"

    def get_queryset(self, request):
        return with_counts(Fabric.objects.defer("last_report", "desired"))

    def get_extra_context(self, request, pager) -> dict:
        rows = [{"fabric": f, "protected": hardening.protected(f.sm)} for f in pager.rows]
        return {"rows": rows, "warning": hardening.WARNING}


class FabricDetailView(ObjectDetailView):
    """A fabric: settings, hosts and pools on it, shared ports, the hardening check, the tenants' partitions."""

    decorators = (staff_member_required,)
    template_name = "fabrics/fabric_detail.html"
    context_object_name = "fabric"

    def get_object(self, request, pk):
        fabrics = with_counts(Fabric.objects.defer("last_report", "desired"))
        # the schemas its agent reads, out of the (large) report in the same query
        return get_object_or_404(fabrics.annotate(agent_reads=F("last_report__reads")), pk=pk)

    def get_extra_context(self, request, fabric) -> dict:
        partitions = PartitionKey.objects.filter(fabric=fabric, released__isnull=True).select_related("tenant")
        pager = paginate(request, partitions.order_by("pkey"))
        return {"pager": pager, "partitions": pager.rows, "facts": hardening.facts(fabric.sm),
                "protected": hardening.protected(fabric.sm), "warning": hardening.WARNING,
                "hosts": fabric.host_links.select_related("host")[:200],
                "pools": fabric.pool_links.select_related("pool")[:200], "shared": fabric.shared_ports.all()[:200],
                "created_token": request.session.pop("fabric_join_token", None)}  # fmt: skip


class JoinTokenCreateView(ObjectActionView):
    """Mint a one-time join token for the fabric's agent; shown once on the fabric's page."""

    decorators = (staff_member_required,)

    def get_object(self, request, pk):
        return get_object_or_404(Fabric, pk=pk)

    def perform(self, request, fabric):
        _, raw = services.create_join_token(fabric)
        request.session["fabric_join_token"] = raw

    def success_message(self, fabric, result) -> str:
        return f"Join token for {fabric} created; copy it now, it is shown once."

    def get_success_url(self, request, fabric, result=None) -> str:
        return reverse("fabrics:fabric-detail", kwargs={"pk": fabric.pk})
