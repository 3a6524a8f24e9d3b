"""Researcher-facing pages: dashboard, cluster requests and their decisions."""

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEvent
from audit.services import snapshot
from core.errors import Conflict
from core.paging import paginate
from core.views import ObjectActionView, ObjectDetailView, ObjectEditView, ObjectListView, PageView, attach_detail
from fabrics import notes as fabric_notes
from frontend.forms import ClusterForm, ExtendLeaseForm, RejectForm, ResizeForm
from netpolicy.choices import SegmentState
from netpolicy.models import Segment
from notices import services as notice_services
from tenants import advice, notifications, offers, progress, quotas, realizers, resize, services
from tenants.access import (
    can_decide,
    get_cluster,
    is_owner,
    is_site_admin,
    tenant_ids,
    visible_clusters,
    visible_tenants,
)
from tenants.choices import LEASE_STATES, REQUEST_STATES, ClusterState, ExtensionState, Interconnect, Role
from tenants.filtersets import ClusterFilterSet
from tenants.models import LeaseExtension, VirtualCluster


class HomeView(ObjectListView):
    """The user's live clusters, tenants and newest notices."""

    template_name = "frontend/home.html"
    context_object_name = "clusters"
    per_page = 20

    def get_queryset(self, request):
        return visible_clusters(request.user).exclude(state=ClusterState.RETIRED)

    def get_extra_context(self, request, pager) -> dict:
        return {"tenants": paginate(request, visible_tenants(request.user).order_by("slug"), 20, param="tenants"),
                "notices": notice_services.recent(request.user),
                "unread_notices": notice_services.unread_count(request.user)}  # fmt: skip


class ClusterListView(ObjectListView):
    """The clusters the user may see, filtered; the htmx partial is the table alone."""

    template_name = "frontend/cluster_list.html"
    partial_name = "frontend/partials/cluster_table.html"
    filterset_class = ClusterFilterSet
    context_object_name = "clusters"

    def get_queryset(self, request):
        return visible_clusters(request.user)


def _advice_context(form) -> dict:
    data = form.data or form.initial
    wc = data.get("workload_class", "")
    return {
        "recommendation": advice.recommendation(wc),
        "notes": advice.notes(wc, data.get("interconnect", ""), data.get("network_mode", ""),
                              data.get("data_path", ""), data.get("gpu_mode", "")),
    }  # fmt: skip


QUOTA_FIELDS = ("tenant", "worker_count", "vcpus_per_node", "memory_gb_per_node", "login_node", "interconnect",
                "gpu_mode", "gpus_per_worker")  # fmt: skip


def _quota_context(form) -> dict:
    """The chosen tenant's quotas (limit, use, what this request adds) and what the request would exceed.

    Shown from the first page view (a lone tenant is preselected); the service checks again at submit.
    """
    tenant, cluster = _chosen_tenant(form), None
    if tenant is None:
        return {"quota_problems": []}
    if form.is_bound:
        sizing = {k: form.cleaned_data[k] for k in QUOTA_FIELDS if k in form.cleaned_data}
        cluster = VirtualCluster(**sizing) if len(sizing) == len(QUOTA_FIELDS) else None
    quota = quotas.quota_of(tenant.pk)
    return {
        "quota_tenant": tenant,
        "quota_rows": quotas.panel(cluster, quota),
        "sized": cluster,
        "quota_problems": quotas.shortfalls(cluster, quota) if cluster else [],
    }


def _chosen_tenant(form):
    """The tenant picked in the form (posted and valid, or preselected), never one the user may not see."""
    if form.is_bound:
        form.is_valid()  # cleaned_data holds every field that is valid
        return form.cleaned_data.get("tenant")
    initial = form.get_initial_for_field(form.fields["tenant"], "tenant")
    return form.fields["tenant"].queryset.filter(pk=getattr(initial, "pk", initial)).first() if initial else None


def _with_recommendation(data):
    """The posted form with the workload class's recommended interconnect, network mode and data path."""
    data = data.copy()
    found = advice.recommendation(data.get("workload_class", ""))
    if found:
        data.update(
            {"interconnect": found.interconnect, "network_mode": found.network_mode, "data_path": found.data_path}
        )
    return data


SITE_FIELDS = ("tenant", "name", "workload_class", "worker_count", "login_node", "interconnect", "network_mode",
               "data_path", "gpu_mode", "gpus_per_worker", "vgpu_profile")  # fmt: skip


def _site_problems(form) -> list[str]:
    """What the site could never realize of this request, shown while typing (submit refuses it the same way)."""
    if not form.is_bound or not form.is_valid():
        return []
    values = {k: form.cleaned_data[k] for k in SITE_FIELDS if k in form.cleaned_data}
    return offers.refusals(VirtualCluster(**values))


class ClusterCreateView(ObjectEditView):
    """The request form; htmx posts it on every change to validate and advise live."""

    template_name = "frontend/cluster_form.html"
    partial_name = "frontend/partials/cluster_form_body.html"
    form_error = staticmethod(attach_detail)

    def get_form(self, request):
        applying = request.method == "POST" and "apply_recommendation" in request.POST
        data = _with_recommendation(request.POST) if applying else request.POST or None
        self.live = applying or request.htmx and request.headers.get("X-Enclave-Validate") == "1"
        return ClusterForm(data, user=request.user)

    def may_save(self, request, form) -> bool:
        return form.is_valid() and not self.live

    def save(self, request, form):
        data = dict(form.cleaned_data)
        tenant = data.pop("tenant")
        return services.create_cluster(tenant, request.user, data, submit="submit" in request.POST)

    def saved(self, request, cluster):
        messages.success(request, f"Cluster request {cluster} is {cluster.get_state_display().lower()}.")
        return redirect("frontend:cluster-detail", pk=cluster.pk)

    def get_context(self, request, form=None) -> dict:
        return {
            "form": form, "live": self.live, **_quota_context(form), "site_problems": _site_problems(form),
            "site_offers": form.site_offers, **_advice_context(form),
        }  # fmt: skip


class ClusterDetailView(ObjectDetailView):
    """A cluster: its status, decisions, lease, resize, access and history; htmx polls the status card alone."""

    template_name = "frontend/cluster_detail.html"
    partial_name = "frontend/partials/cluster_status.html"

    def get(self, request, pk):
        cluster = get_cluster(request.user, pk)
        if request.htmx:  # the live status card alone: what is being applied, and why it waits or failed
            if not cluster.work_pending:  # the work is done: load the whole page once (actions, access, history)
                return HttpResponse(headers={"HX-Refresh": "true"})
            return render(request, "frontend/partials/cluster_status.html", _status_context(cluster))
        return self.render(request, self.get_extra_context(request, cluster))

    def get_extra_context(self, request, cluster) -> dict:
        return _detail_context(request, cluster)


def _detail_context(request, cluster) -> dict:
    history = AuditEvent.objects.filter(object_type="tenants.virtualcluster", object_id=str(cluster.pk))
    can_resize = can_decide(request.user, cluster) and cluster.state in RESIZABLE_STATES
    origin = catalog_origin(cluster)
    return {
        **_status_context(cluster),
        "history": [_with_summary(e) for e in history.order_by("created", "id")],
        "can_endorse": cluster.state == ClusterState.SUBMITTED and is_owner(request.user, cluster.tenant_id),
        "can_approve": cluster.state == ClusterState.ENDORSED and is_site_admin(request.user),
        "can_decide": can_decide(request.user, cluster),
        "reject_form": RejectForm(),
        **_lease_context(cluster, request.user),
        "can_resize": can_resize,
        "resize_by_others": cluster.state in RESIZABLE_STATES and not can_resize,
        "resize_form": ResizeForm(initial={"worker_count": cluster.worker_count, "interconnect": cluster.interconnect},
                                  site_offers=offers.site_offers() if can_resize else (),
                                  rules=origin.version.rules if origin else None),
        "notes": advice.notes(cluster.workload_class, cluster.interconnect, cluster.network_mode,
                              cluster.data_path, cluster.gpu_mode),
        "origin": origin,
        "ib_partition": fabric_notes.partition_of(cluster) if cluster.interconnect == Interconnect.SRIOV_IB else None,
        **_access_context(cluster, request.user),
    }  # fmt: skip


def _status_context(cluster) -> dict:
    """The status card: the state, and while work is pending what is applied and why it waits or failed."""
    pending = resize.pending(cluster) if cluster.generation != cluster.observed_generation else []
    return {"cluster": cluster, "live": cluster.work_pending, "pending": pending,
            "next_step": progress.next_step(cluster), "path": progress.path(cluster),
            "before_site": cluster.state in REQUEST_STATES}  # fmt: skip


def _with_summary(event):
    """A history row says what a resize changed (from → to), not only that one happened."""
    event.changes = resize.describe(event.before, event.after) if event.action == "cluster.resize" else []
    if event.action == "cluster.extend_lease":
        was, now = (event.before or {}).get("lease_end"), (event.after or {}).get("lease_end")
        event.changes = [f"lease end {was} → {now}"] if was != now else []
    return event


def _lease_context(cluster, user) -> dict:
    """The lease card: when it ends, what happens then, a pending extension, the one-click extension form."""
    latest, bound = services.max_lease_end(), services.lease_limit(cluster)
    if bound is not None and bound[0] <= latest:
        latest = bound[0]  # a catalog item's limit: nothing past it, not even with a justification
    else:
        bound = None
    extension = services.pending_extension(cluster) if cluster.state in LEASE_STATES else None
    may_extend = cluster.requested_by_id == user.pk or can_decide(user, cluster)
    may_extend = may_extend and (bound is None or latest > cluster.lease_end)
    return {
        "lease_bound": bound[1] if bound else "",
        # Before approval the requested lease end is part of the request (edited with it), not a lease to extend.
        "lease_open": cluster.state in LEASE_STATES and cluster.state not in REQUEST_STATES,
        "lease_days_left": (cluster.lease_end - timezone.localdate()).days,
        "at_expiry": notifications.AT_EXPIRY,
        "warning_days": settings.LEASE_WARNING_DAYS,
        "max_days": settings.LEASE_MAX_DAYS,
        "max_lease_end": latest,
        # The lease already ends past what needs no review (an approved extension moved it): no "up to" hint.
        "past_review_free": cluster.lease_end >= latest,
        "extension": extension,
        "can_decide_extension": extension is not None
        and can_decide(user, cluster)
        and (extension.requested_by_id != user.pk or is_site_admin(user)),
        "can_extend": may_extend,
        # One click: the furthest date allowed without review (the current end when that is later).
        "lease_form": ExtendLeaseForm(initial={"lease_end": max(latest, cluster.lease_end)}, latest=bound and latest),
    }


def catalog_origin(cluster):
    """The catalog item version the request came from, if any."""
    from catalog.models import ClusterOrigin

    return ClusterOrigin.objects.select_related("version__item").filter(cluster=cluster).first()


def _access_context(cluster, user) -> dict:
    """How to reach the cluster, from the site's realizer (the database only: pages never call a site)."""
    if not cluster.site_kind or cluster.state not in ACCESS_STATES:
        return {}
    view = realizers.for_cluster(cluster).observe(cluster)
    return {"access": view, "ssh_command": view.ssh_command(user.username)}


ACCESS_STATES = {ClusterState.APPROVED, ClusterState.PROVISIONING, ClusterState.READY, ClusterState.DEGRADED,
                 ClusterState.ERROR}  # fmt: skip


RESIZABLE_STATES = {ClusterState.APPROVED, ClusterState.PROVISIONING, ClusterState.READY, ClusterState.DEGRADED,
                    ClusterState.ERROR}  # fmt: skip

ACTIONS = {
    "submit": lambda c, u, p: services.submit_cluster(c, u),
    "endorse": lambda c, u, p: services.endorse_cluster(c, u),
    "approve": lambda c, u, p: services.approve_cluster(c, u),
    "reject": lambda c, u, p: services.reject_cluster(c, u, p.get("reason", "")),
    "decommission": lambda c, u, p: services.decommission_cluster(c, u),
}


def _decide_extension(cluster, user, approve: bool, reason: str = ""):
    extension = services.pending_extension(cluster)
    if extension is None:
        raise Conflict("No lease extension waits for a decision.")
    return services.decide_extension(extension, user, approve, reason)


ACTIONS["approve-extension"] = lambda c, u, p: _decide_extension(c, u, True)
ACTIONS["reject-extension"] = lambda c, u, p: _decide_extension(c, u, False, p.get("reason", ""))


FORM_ACTIONS = {
    "extend-lease": (ExtendLeaseForm, lambda c, u, d: services.change_lease(c, u, d["lease_end"], d["justification"]),
                     "Give a valid date for the new lease end."),
    "resize": (ResizeForm, lambda c, u, d: services.resize_cluster(c, u, **d),
               "Give a worker count between 1 and 1024 and an interconnect."),
}  # fmt: skip


def _done(result, before: VirtualCluster) -> str:
    """What a successful action says: the cluster's new state, the work now pending, or the extension waiting."""
    if isinstance(result, LeaseExtension):
        return _extension_done(result)
    if result.lease_end != before.lease_end and result.state == before.state:
        return f"The lease of {result} now ends on {result.lease_end}."
    state = result.get_state_display().lower()
    if result.state == before.state and result.generation != before.generation:
        changes = ", ".join(resize.describe(snapshot(before), snapshot(result))) or "no change"
        return (f"Resize of {result} submitted ({changes}): generation {result.generation} is being applied, "
                "and this page follows it until it is done.")  # fmt: skip
    if result.work_pending:
        return f"{result} is now {state}; the site is at work on it, and this page follows it until it is done."
    return f"{result} is now {state}."


def _extension_done(extension: LeaseExtension) -> str:
    """A lease extension's banner: asked for, approved (the lease's new end) or rejected; never the cluster's state."""
    if extension.state == ExtensionState.APPROVED:
        return f"Extension of {extension.cluster} approved: the lease now ends on {extension.lease_end}."
    if extension.state == ExtensionState.REJECTED:
        return f"Extension of {extension.cluster} to {extension.lease_end} rejected; the lease end is unchanged."
    return (f"Extension of {extension.cluster} to {extension.lease_end} requested: it waits for a PI's or admin's "
            "approval.")  # fmt: skip


def _resize_plan(request, cluster, changes: dict):
    """The resize's plan (what changes, sizes, quota effect) and a confirmation, before anything is submitted."""
    if not can_decide(request.user, cluster) or cluster.state not in RESIZABLE_STATES:
        messages.error(request, "Only a tenant owner or a site admin may resize a live cluster.")
        return redirect("frontend:cluster-detail", pk=cluster.pk)
    context = {"cluster": cluster, "plan": resize.plan(cluster, changes), "changes": changes}
    return render(request, "frontend/cluster_resize.html", context)


class ClusterActionView(ObjectActionView):
    """Run one state transition; errors come back as a message, nothing half-done."""

    def get_object(self, request, **kwargs):
        return self.cluster

    def post(self, request, pk, verb):
        self.cluster = get_cluster(request.user, pk)
        if verb in FORM_ACTIONS:
            form_class, call, problem = FORM_ACTIONS[verb]
            form = form_class(request.POST)
            if not form.is_valid():
                messages.error(request, problem)
                return redirect("frontend:cluster-detail", pk=pk)
            if verb == "resize" and request.POST.get("confirm") != "yes":
                return _resize_plan(request, self.cluster, form.cleaned_data)
            self.handler = lambda c, u, p: call(c, u, form.cleaned_data)
        elif verb in ACTIONS:
            self.handler = ACTIONS[verb]
        else:
            raise Http404("No such action.")
        return super().post(request, pk=pk, verb=verb)

    def perform(self, request, cluster):
        return self.handler(cluster, request.user, request.POST)

    def success_message(self, cluster, result) -> str:
        return _done(result, cluster)

    def get_success_url(self, request, cluster, result=None) -> str:
        return reverse("frontend:cluster-detail", kwargs={"pk": cluster.pk})


class ApprovalsView(PageView):
    """Requests waiting for this user's decision: endorsements for owners, approvals for admins."""

    template_name = "frontend/approvals.html"

    def get_context(self, request) -> dict:
        return _approvals_context(request)


def _approvals_context(request) -> dict:
    user = request.user
    admin = is_site_admin(user)
    to_endorse = visible_clusters(user).filter(state=ClusterState.SUBMITTED)
    if not admin:
        to_endorse = to_endorse.filter(tenant__in=tenant_ids(user, Role.OWNER))
    none = VirtualCluster.objects.none()
    to_approve = visible_clusters(user).filter(state=ClusterState.ENDORSED) if admin else none
    # Segment requests (network intent) wait for site admins too.
    pending = Segment.objects.filter(state=SegmentState.REQUESTED).select_related("tenant", "requested_by")
    pending = pending.order_by("pk") if admin else Segment.objects.none()
    extensions = LeaseExtension.objects.waiting().select_related("cluster__tenant", "requested_by").order_by("pk")
    if not admin:
        extensions = extensions.filter(cluster__tenant__in=tenant_ids(user, Role.OWNER)).exclude(requested_by=user)
    return {"to_endorse": paginate(request, to_endorse, param="endorse"),
            "extensions": paginate(request, extensions, param="extensions"),
            "to_approve": paginate(request, to_approve, param="approve"),
            "pending": paginate(request, pending, param="segments")}  # fmt: skip
