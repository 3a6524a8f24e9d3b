"""htmx pages: segments (request, live checks, decisions), pools, firewall rules with lint, what-if."""

from dataclasses import replace

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from audit.models import AuditEvent
from netpolicy import (
    allocation,
    findings,
    firewall_page,
    node_pools,
    policy,
    realization,
    segments,
    service_requests,
    whatif,
)
from netpolicy import rules as rule_service
from netpolicy.allocation import PoolExhausted, pool_usage
from netpolicy.choices import SegmentKind, SegmentState
from netpolicy.forms import (
    GroupAddressForm,
    GroupCreateForm,
    PoolForm,
    ReasonForm,
    RuleForm,
    SegmentForm,
    ServiceForm,
    ServiceRequestForm,
)
from netpolicy.ir import Builder
from netpolicy.models import FirewallPolicy, FirewallRule, Group, Pool, Segment, Service
from netpolicy.serializers import WhatIfSerializer
from portal.errors import Forbidden, NotFound, ServiceError
from portal.pages import attach, render_page
from portal.paging import paginate
from tenants.access import is_owner, is_site_admin, scope, staff_member_required, tenant_ids, viewer, visible_tenants
from tenants.choices import Role

S = SegmentState


def _own_or_site(queryset, user, field: str = "tenant"):
    """The user's tenants' objects plus site-wide ones (site admins: everything)."""
    if is_site_admin(user):
        return queryset
    return queryset.filter(Q(**{f"{field}__in": tenant_ids(user)}) | Q(**{f"{field}__isnull": True}))


def _refused(request, exc: ServiceError):
    """A service refusal as a page: 404 stays a 404, everything else is a 403 with the reason."""
    if isinstance(exc, NotFound):
        raise Http404(str(exc.detail))
    return render(request, "netpolicy/refused.html", {"reason": exc.text}, status=403)


# ---------------------------------------------------------------- segments


@login_required
def segment_list(request):
    """Segments of the user's tenants, with effective MTU and IPoIB warnings; pools' usage."""
    segments_ = scope(Segment.objects.select_related("tenant", "id_pool"), request.user)
    pending = segments_.filter(state=S.REQUESTED) if is_site_admin(request.user) else segments_.none()
    pager = paginate(request, segments_.order_by("tenant__slug", "name"))
    context = {
        "segments": pager.rows,
        "pager": pager,
        "pools": _pools_page(request, request.user),
        "pending": paginate(request, pending.order_by("pk"), param="pending"),
    }
    return render_page(request, "netpolicy/segment_list.html", context, "netpolicy/partials/segment_table.html")


def _pools_page(request, user):
    """One page of the pools the user may use, with their usage (counted in the same query)."""
    pools = _own_or_site(allocation.with_usage(Pool.objects.select_related("tenant")), user)
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


@login_required
def segment_create(request):
    """The request form; htmx posts it as the user types to check it against the pools live."""
    form = SegmentForm(request.POST or None, user=request.user)
    live = request.htmx and request.headers.get("X-Enclave-Validate") == "1"
    allocation_preview, service_fields = None, set()
    if request.method == "POST" and form.is_valid():
        tenant, data = form.cleaned_data["tenant"], form.service_data()
        try:
            if live:
                allocation_preview = _dry_run(tenant, request.user, data)
            else:
                segment = segments.create_segment(tenant, request.user, data)
                messages.success(request, f"Segment {segment} is {segment.get_state_display().lower()}.")
                return redirect("netpolicy:segment-detail", pk=segment.pk)
        except ServiceError as exc:
            service_fields.add(_segment_error(form, exc))
    context = {
        "form": form,
        "live": live,
        "preview": _mtu_preview(form),
        "allocation": allocation_preview,
        "service_fields": service_fields,
    }
    return render_page(request, "netpolicy/segment_form.html", context, "netpolicy/partials/segment_live.html")


def _get_segment(user, pk) -> Segment:
    """Another tenant's segment is a 404, exactly like a missing one."""
    queryset = scope(
        node_pools.with_pools(Segment.objects.select_related("tenant", "id_pool", "prefix_pool", "requested_by")), user
    )
    return get_object_or_404(queryset, pk=pk)


@login_required
def segment_detail(request, pk):
    """A segment, where it is realized and how far each node got; live while work is pending."""
    segment = _get_segment(request.user, pk)
    admin = is_site_admin(request.user)
    history = AuditEvent.objects.filter(object_type="netpolicy.segment", object_id=str(segment.pk))
    context = {
        "segment": segment,
        "history": history.order_by("created", "id"),
        "can_decide": admin and segment.state == S.REQUESTED,
        "can_retire": (admin or is_owner(request.user, segment.tenant_id))
        and segment.state in (S.REQUESTED, S.APPROVED, S.READY, S.ERROR),
        "reason_form": ReasonForm(),
        **_realization_context(request, segment),
    }
    return render_page(request, "netpolicy/segment_detail.html", context, "netpolicy/partials/segment_status.html")


BUSY_CLUSTER_STATES = ("approved", "provisioning", "decommissioning")


def _realization_context(request, segment) -> dict:
    """Where the segment is realized (one page of its pool's nodes, its clusters) and whether work is pending."""
    realized = segment.state not in realization.NOT_REALIZED
    on_nodes = realized and segment.node_pool_id
    nodes = paginate(request, realization.nodes_of(segment), param="nodes") if on_nodes else None
    rows = realization.node_rows(segment, nodes.rows, viewer(request.user)) if nodes else []
    clusters = segment.clusters.filter(tenant_id=segment.tenant_id).exclude(state="retired").select_related("tenant")
    clusters = list(clusters.order_by("pk")[:50])
    live = segment.state == S.REQUESTED or any(row.status == "applying" for row in rows)
    live = live or (on_nodes and segment.observed_generation < segment.generation)
    live = live or any(c.state in BUSY_CLUSTER_STATES or c.generation != c.observed_generation for c in clusters)
    sdn = list(segment.nsx_objects.order_by("path")[:20])  # NSX's realized state of the segment, if NSX has it
    live = live or any(o.state in ("pending", "in_progress") for o in sdn)
    return {"summary": realization.summary(segment, clusters), "node_rows": rows, "node_pager": nodes,
            "segment_clusters": clusters, "sdn_objects": sdn, "live": bool(live)}  # fmt: skip


def _transition(request, pk, action: str, to_state: str, reason: str = ""):
    segment = _get_segment(request.user, pk)
    try:
        segment = segments.transition_segment(segment, request.user, action, to_state, reason)
        messages.success(request, f"Segment {segment} is now {segment.get_state_display().lower()}.")
    except NotFound:
        raise Http404("No such segment.") from None
    except ServiceError as exc:
        messages.error(request, exc.text)
    return redirect("netpolicy:segment-detail", pk=pk)


@login_required
@require_POST
def segment_approve(request, pk):
    return _transition(request, pk, "approve", S.APPROVED)


@login_required
@require_POST
def segment_reject(request, pk):
    """Rejections need a reason; it is kept in the audit event."""
    form = ReasonForm(request.POST)
    if not form.is_valid():
        _get_segment(request.user, pk)
        messages.error(request, "Give a reason for the rejection.")
        return redirect("netpolicy:segment-detail", pk=pk)
    return _transition(request, pk, "reject", S.REJECTED, form.cleaned_data["reason"])


@login_required
@require_POST
def segment_retire(request, pk):
    return _transition(request, pk, "retire", S.RETIRED)


@staff_member_required
def pool_create(request):
    """Define a pool; the page lists every pool with used / free."""
    form = PoolForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            pool = allocation.create_pool(request.user, form.service_data())
        except ServiceError as exc:
            attach(form, exc)
        else:
            messages.success(request, f"Pool {pool} created.")
            return redirect("netpolicy:pool-create")
    return render(request, "netpolicy/pool_form.html", {"form": form, "pools": _pools_page(request, request.user)})


# ---------------------------------------------------------------- firewall


def _findings(user, tenant_ids_) -> findings.Findings:
    """Lint of these tenants' rules (None: site policies) as the user may read it; never fails on a broken tenant."""
    return findings.findings(set(tenant_ids_), viewer(user))


@login_required
def firewall(request):
    """One tenant's policies and rules (or the site's) with lint; admins search tenants and filter."""
    return render(request, "netpolicy/firewall.html", firewall_page.context(request))


@login_required
@require_POST
def what_if(request):
    """Answer one what-if question: the partial for htmx, the whole page without JavaScript."""
    answer, status = _what_if_answer(request.user, request.POST)
    context = {"form": request.POST, **answer}
    if not request.htmx:
        context = {**firewall_page.context(request), **context}
    response = render_page(request, "netpolicy/firewall.html", context, "netpolicy/partials/what_if.html")
    response.status_code = status
    return response


def _what_if_answer(user, data) -> tuple[dict, int]:
    """The answer (or the errors, shown like a form's) and the page's status: a refused question is a 403."""
    serializer = WhatIfSerializer(data=data)
    if not serializer.is_valid():
        return {"errors": {k: " ".join(map(str, v)) for k, v in serializer.errors.items()}}, 200
    data = serializer.validated_data
    try:
        return {
            "answer": whatif.answer(user, data["source"], data["destination"], data["protocol"], data.get("port"))
        }, 200
    except ServiceError as exc:
        return {"errors": {"detail": exc.text}}, exc.status_code if exc.status_code in (403, 409) else 200


def _rule_saved(request, rule: FirewallRule):
    """Back to the firewall page at the rule, with its lint in the message as well."""
    found = _findings(request.user, [rule.policy.tenant_id]).for_rule(rule.pk, rule.policy.tenant_id)
    lint = "; ".join(f"{f['kind']}: {f['message']}" for f in found) or "no findings"
    (messages.warning if found else messages.success)(request, f"Saved rule '{rule.name}' — lint: {lint}")
    return redirect(_rule_url(request.user, rule))


def _rule_url(user, rule: FirewallRule) -> str:
    """The firewall page of the rule's tenant, at the rule."""
    return reverse("netpolicy:rule-list") + firewall_page.url_for(user, rule.policy.tenant_id) + f"#rule-{rule.pk}"


def _rule_form_page(request, policy_obj: FirewallPolicy, instance: FirewallRule | None):
    """Create or edit a rule through the rules service; refusals come back next to the fields."""
    try:
        policy.require_editor(request.user, policy_obj.tenant_id)
    except ServiceError as exc:
        return _refused(request, exc)
    initial = {"action": request.GET.get("action")} if instance is None else {}
    form = RuleForm(request.POST or None, instance=instance, user=request.user, policy=policy_obj, initial=initial)
    if request.method == "POST" and form.is_valid():
        fresh = FirewallRule.objects.get(pk=instance.pk) if instance else None  # form mutated instance
        try:
            rule = rule_service.save_rule(request.user, form.service_data(), fresh)
        except ServiceError as exc:
            attach(form, exc)
        else:
            return _rule_saved(request, rule)
    found = (
        _findings(request.user, [policy_obj.tenant_id]).for_rule(instance.pk, policy_obj.tenant_id) if instance else []
    )
    context = {"form": form, "policy": policy_obj, "rule": instance, "findings": found}
    return render(request, "netpolicy/rule_form.html", context)


@login_required
def rule_create(request, pk):
    policy_obj = get_object_or_404(_own_or_site(FirewallPolicy.objects.all(), request.user), pk=pk)
    return _rule_form_page(request, policy_obj, None)


def _get_rule(user, pk) -> FirewallRule:
    rules = _own_or_site(FirewallRule.objects.select_related("policy__tenant"), user, "policy__tenant")
    return get_object_or_404(rules, pk=pk)


@login_required
def rule_edit(request, pk):
    rule = _get_rule(request.user, pk)
    return _rule_form_page(request, rule.policy, rule)


@login_required
@require_POST
def rule_move(request, pk):
    """Move a rule up or down within its policy; it keeps its id."""
    rule = _get_rule(request.user, pk)
    direction = request.POST.get("direction")
    if direction not in ("up", "down"):
        messages.error(request, "Say whether the rule moves up or down.")
        return redirect("netpolicy:rule-list")
    try:
        rule = rule_service.move_rule(request.user, rule, direction == "up")
    except Forbidden as exc:
        return _refused(request, exc)
    except ServiceError as exc:
        messages.error(request, exc.text)
    return redirect(_rule_url(request.user, rule))


@login_required
def group_edit(request, pk):
    """Set a group's explicit addresses (site groups: admins; tenant groups: owners and admins)."""
    group = get_object_or_404(_own_or_site(Group.objects.select_related("tenant"), request.user), pk=pk)
    try:
        policy.require_editor(request.user, group.tenant_id)
    except ServiceError as exc:
        return _refused(request, exc)
    initial = {"cidrs": "\n".join(group.cidrs), "description": group.description}
    form = GroupAddressForm(request.POST or None, initial=initial)
    derived = Builder([group.tenant_id] if group.tenant_id else []).group(group).cidrs if group.derived_from else ()
    if request.method == "POST" and form.is_valid():
        try:
            policy.save_group(request.user, dict(form.cleaned_data), group)
        except ServiceError as exc:
            attach(form, exc)
        else:
            messages.success(request, f"Addresses of {group} saved.")
            return redirect(reverse("netpolicy:rule-list") + "#groups")
    return render(request, "netpolicy/group_form.html", {"form": form, "group": group, "derived": derived})


def _confirm_delete(request, obj, what: str, delete, back: str):
    """GET: the confirmation page; POST: delete through the service (refusals come back as a message)."""
    if request.method == "POST":
        try:
            delete(request.user, obj)
        except Forbidden as exc:
            return _refused(request, exc)
        except ServiceError as exc:
            messages.error(request, exc.text)
        else:
            messages.success(request, f"Deleted {what} {obj}.")
        return redirect(back)
    return render(request, "netpolicy/confirm_delete.html", {"object": obj, "what": what, "back": back})


@login_required
def group_create(request, pk):
    """A tenant owner adds a group of explicit addresses (a partner network) to the tenant."""
    tenant = get_object_or_404(visible_tenants(request.user), pk=pk)
    try:
        policy.require_editor(request.user, tenant.pk)
    except ServiceError as exc:
        return _refused(request, exc)
    form = GroupCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            group = policy.save_group(request.user, {"tenant": tenant, **form.cleaned_data})
        except ServiceError as exc:
            attach(form, exc)
        else:
            messages.success(request, f"Group {group} created; name it in a rule to use it.")
            return redirect(_groups_url(request.user, tenant.pk))
    return render(request, "netpolicy/group_form.html", {"form": form, "tenant": tenant})


def _groups_url(user, tenant_id) -> str:
    return reverse("netpolicy:rule-list") + firewall_page.url_for(user, tenant_id) + "#groups"


@login_required
def group_delete(request, pk):
    """Delete a group no rule names, after a confirmation."""
    group = get_object_or_404(_own_or_site(Group.objects.select_related("tenant"), request.user), pk=pk)
    try:
        policy.require_editor(request.user, group.tenant_id)
    except ServiceError as exc:
        return _refused(request, exc)
    return _confirm_delete(request, group, "group", policy.delete_group, _groups_url(request.user, group.tenant_id))


@login_required
def rule_delete(request, pk):
    """Delete a rule, after a confirmation."""
    rule = _get_rule(request.user, pk)
    try:
        policy.require_editor(request.user, rule.policy.tenant_id)
    except ServiceError as exc:
        return _refused(request, exc)
    back = reverse("netpolicy:rule-list") + firewall_page.url_for(request.user, rule.policy.tenant_id)
    return _confirm_delete(request, rule, "rule", rule_service.delete_rule, back)


@staff_member_required
def service_create(request):
    """Add a service to the catalogue (ports are checked: 1..65535, ranges not inverted)."""
    # A PI's request links here with the service filled in (netpolicy.service_requests).
    prefill = {k: v for k, v in request.GET.items() if k in ServiceForm.Meta.fields}
    form = ServiceForm(request.POST or None, initial=prefill)
    if request.method == "POST" and form.is_valid():
        try:
            service = policy.save_service(request.user, dict(form.cleaned_data))
        except ServiceError as exc:
            attach(form, exc)
        else:
            messages.success(request, f"Service {service} added.")
            return redirect("netpolicy:service-create")
    pager = paginate(request, Service.objects.all())
    return render(request, "netpolicy/service_form.html", {"form": form, "services": pager.rows, "pager": pager})


@login_required
def service_request(request):
    """A tenant owner (PI) asks the site admins for a new service; the catalogue is shown beside the form."""
    owned = visible_tenants(request.user).filter(pk__in=tenant_ids(request.user, Role.OWNER)).order_by("slug")
    form = None
    if owned.exists():
        form = ServiceRequestForm(request.POST or None, tenants=owned, initial={"tenant": owned.first()})
    elif request.method == "POST":
        return _refused(request, Forbidden("Only a tenant owner (PI) asks for new services."))
    if form is not None and request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        tenant, justification = data.pop("tenant"), data.pop("justification")
        try:
            service_requests.request_service(request.user, tenant, data, justification)
        except ServiceError as exc:
            attach(form, exc)
        else:
            messages.success(request, f"Asked the site admins for the service {data['name']}; you will hear when "
                             "it is in the catalogue.")  # fmt: skip
            return redirect("netpolicy:service-request")
    pager = paginate(request, Service.objects.all())
    context = {"form": form, "services": pager.rows, "pager": pager, "is_admin": is_site_admin(request.user)}
    return render(request, "netpolicy/service_request.html", context)
