"""htmx pages: segments (request, live checks, decisions) and pools; the firewall's pages are in firewall_views."""

from dataclasses import replace

from django.contrib import messages
from django.db import transaction
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from audit.models import AuditEvent
from core.errors import NotFound, ServiceError
from core.paging import paginate
from core.views import ObjectActionView, ObjectDetailView, ObjectEditView, ObjectListView
from netpolicy import allocation, node_pools, realization, segments
from netpolicy.allocation import PoolExhausted, pool_usage
from netpolicy.choices import SegmentKind, SegmentState
from netpolicy.forms import PoolForm, ReasonForm, SegmentForm
from netpolicy.models import Pool, Segment
from tenants.access import is_owner, is_site_admin, scope, staff_member_required, tenant_ids, viewer
from tenants.models import VirtualCluster

S = SegmentState


def own_or_site(queryset, user, field: str = "tenant"):
    """The user's tenants' objects plus site-wide ones (site admins: everything)."""
    if is_site_admin(user):
        return queryset
    return queryset.filter(Q(**{f"{field}__in": tenant_ids(user)}) | Q(**{f"{field}__isnull": True}))


def refused_page(request, exc: ServiceError):
    """A service refusal as a page: 404 stays a 404, everything else is a 403 with the reason."""
    if isinstance(exc, NotFound):
        raise Http404(str(exc.detail))
    return render(request, "netpolicy/refused.html", {"reason": exc.text}, status=403)


# ---------------------------------------------------------------- segments


class SegmentListView(ObjectListView):
    """Segments of the user's tenants, with effective MTU and IPoIB warnings; pools' usage."""

    template_name = "netpolicy/segment_list.html"
    partial_name = "netpolicy/partials/segment_table.html"
    context_object_name = "segments"

    def get_queryset(self, request):
        self.segments = scope(Segment.objects.select_related("tenant", "id_pool"), request.user)
        return self.segments.order_by("tenant__slug", "name")

    def get_extra_context(self, request, pager) -> dict:
        waiting = self.segments.filter(state=S.REQUESTED).select_related("requested_by")  # the list names them
        pending = waiting if is_site_admin(request.user) else self.segments.none()
        return {"pools": _pools_page(request, request.user),
                "pending": paginate(request, pending.order_by("pk"), param="pending")}  # fmt: skip


def _pools_page(request, user):
    """One page of the pools the user may use, with their usage (counted in the same query)."""
    pools = own_or_site(allocation.with_usage(Pool.objects.select_related("tenant")), user)
    pager = paginate(request, pools.order_by("kind", "name"), param="pools")
    return replace(pager, rows=[(p, pool_usage(p)) for p in pager.rows])


class _DryRun(Exception):
    """Carries the would-be segment out of the transaction that is rolled back."""

    def __init__(self, segment):
        super().__init__()
        self.segment = segment


def _dry_run(tenant, user, data: dict) -> Segment:
    """The real service in a rolled-back transaction: the same checks as submit, nothing kept."""
    try:
        with transaction.atomic():
            raise _DryRun(segments.create_segment(tenant, user, data))
    except _DryRun as done:
        return done.segment


def _segment_error(form, exc: ServiceError) -> str | None:
    """Pool exhaustion and id/subnet conflicts belong to the id or subnet field; returns it."""
    kind = form.cleaned_data.get("kind")
    id_field = "vni" if kind == SegmentKind.OVERLAY else "vlan_id"
    field = exc.field
    if isinstance(exc, PoolExhausted) and field is None:
        field = id_field if " ids " in exc.text else "subnet"
    aliases = {"id_pool": id_field, "pool": id_field, "prefix_pool": "subnet", "prefix_length": "subnet", "quota": None}
    field = aliases.get(field, field)
    form.add_error(field if field in form.fields else None, exc.text)
    return field


def _mtu_preview(form) -> Segment:
    """A transient segment carrying kind and MTU, for the effective MTU and IPoIB warning."""
    data = form.data
    try:
        mtu = int(data.get("mtu") or 9000)
    except ValueError:
        mtu = 9000
    return Segment(kind=data.get("kind") or SegmentKind.VLAN, mtu=mtu)


class SegmentCreateView(ObjectEditView):
    """The request form; htmx posts it as the user types to check it against the pools live (a dry run)."""

    template_name = "netpolicy/segment_form.html"
    partial_name = "netpolicy/partials/segment_live.html"

    def get_form(self, request):
        self.live = request.htmx and request.headers.get("X-Enclave-Validate") == "1"
        self.allocation, self.service_fields = None, set()
        return SegmentForm(request.POST or None, user=request.user)

    def save(self, request, form):
        tenant, data = form.cleaned_data["tenant"], form.service_data()
        if self.live:
            self.allocation = _dry_run(tenant, request.user, data)
            return None
        return segments.create_segment(tenant, request.user, data)

    def form_error(self, form, exc: ServiceError) -> None:
        self.service_fields.add(_segment_error(form, exc))

    def saved(self, request, segment):
        if segment is None:  # a live check: the form again, with what the pools would give
            return self.render(request, self.get_context(request, form=self.form))
        messages.success(request, f"Segment {segment} is {segment.get_state_display().lower()}.")
        return redirect("netpolicy:segment-detail", pk=segment.pk)

    def may_save(self, request, form) -> bool:
        self.form = form
        return form.is_valid()

    def get_context(self, request, form=None) -> dict:
        return {"form": form, "live": self.live, "preview": _mtu_preview(form), "allocation": self.allocation,
                "service_fields": self.service_fields}  # fmt: skip


def _get_segment(user, pk) -> Segment:
    """Another tenant's segment is a 404, exactly like a missing one."""
    queryset = scope(
        node_pools.with_pools(Segment.objects.select_related("tenant", "id_pool", "prefix_pool", "requested_by")), user
    )
    return get_object_or_404(queryset, pk=pk)


class SegmentDetailView(ObjectDetailView):
    """A segment, where it is realized and how far each node got; live while work is pending."""

    template_name = "netpolicy/segment_detail.html"
    partial_name = "netpolicy/partials/segment_status.html"
    context_object_name = "segment"

    def get_object(self, request, pk):
        return _get_segment(request.user, pk)

    def get_extra_context(self, request, segment) -> dict:
        admin = is_site_admin(request.user)
        history = AuditEvent.objects.filter(object_type="netpolicy.segment", object_id=str(segment.pk))
        return {
            "history": history.order_by("created", "id"),
            "can_decide": admin and segment.state == S.REQUESTED,
            "can_retire": (admin or is_owner(request.user, segment.tenant_id))
            and segment.state in (S.REQUESTED, S.APPROVED, S.READY, S.ERROR),
            "reason_form": ReasonForm(),
            **_realization_context(request, segment),
        }


BUSY_CLUSTER_STATES = ("approved", "provisioning", "decommissioning")


def _realization_context(request, segment) -> dict:
    """Where the segment is realized (one page of its pool's nodes, its clusters) and whether work is pending."""
    realized = segment.state not in realization.NOT_REALIZED
    on_nodes = realized and segment.node_pool_id
    nodes = paginate(request, realization.nodes_of(segment), param="nodes") if on_nodes else None
    rows = realization.node_rows(segment, nodes.rows, viewer(request.user)) if nodes else []
    # vsphere places clusters on segments (a reverse lookup of its Placement: netpolicy imports nothing of it)
    clusters = VirtualCluster.objects.filter(placement__segment=segment, tenant_id=segment.tenant_id)
    clusters = clusters.exclude(state="retired").select_related("tenant")
    clusters = list(clusters.order_by("pk")[:50])
    live = segment.state == S.REQUESTED or any(row.status == "applying" for row in rows)
    live = live or (on_nodes and segment.observed_generation < segment.generation)
    live = live or any(c.state in BUSY_CLUSTER_STATES or c.generation != c.observed_generation for c in clusters)
    sdn = list(segment.nsx_objects.order_by("path")[:20])  # NSX's realized state of the segment, if NSX has it
    live = live or any(o.state in ("pending", "in_progress") for o in sdn)
    return {"summary": realization.summary(segment, clusters), "node_rows": rows, "node_pager": nodes,
            "segment_clusters": clusters, "sdn_objects": sdn, "live": bool(live)}  # fmt: skip


class _SegmentTransitionView(ObjectActionView):
    """One decision on a segment; the service checks who may take it."""

    action = to_state = ""

    def get_object(self, request, pk):
        return _get_segment(request.user, pk)

    def reason(self, request) -> str:
        return ""

    def perform(self, request, segment):
        return segments.transition_segment(segment, request.user, self.action, self.to_state, self.reason(request))

    def success_message(self, segment, result) -> str:
        return f"Segment {result} is now {result.get_state_display().lower()}."

    def get_success_url(self, request, segment, result=None) -> str:
        return reverse("netpolicy:segment-detail", kwargs={"pk": segment.pk})


class SegmentApproveView(_SegmentTransitionView):
    action, to_state = "approve", S.APPROVED


class SegmentRejectView(_SegmentTransitionView):
    """Rejections need a reason; it is kept in the audit event."""

    action, to_state = "reject", S.REJECTED

    def post(self, request, pk):
        self.form = ReasonForm(request.POST)
        if not self.form.is_valid():
            _get_segment(request.user, pk)
            messages.error(request, "Give a reason for the rejection.")
            return redirect("netpolicy:segment-detail", pk=pk)
        return super().post(request, pk=pk)

    def reason(self, request) -> str:
        return self.form.cleaned_data["reason"]


class SegmentRetireView(_SegmentTransitionView):
    action, to_state = "retire", S.RETIRED


class PoolCreateView(ObjectEditView):
    """Define a pool; the page lists every pool with used / free."""

    decorators = (staff_member_required,)
    template_name = "netpolicy/pool_form.html"

    def get_form(self, request):
        return PoolForm(request.POST or None)

    def save(self, request, form):
        return allocation.create_pool(request.user, form.service_data())

    def saved(self, request, pool):
        messages.success(request, f"Pool {pool} created.")
        return redirect("netpolicy:pool-create")

    def get_context(self, request, form=None) -> dict:
        return {"form": form, "pools": _pools_page(request, request.user)}
