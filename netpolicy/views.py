"""htmx pages: segments with pool usage and MTU warnings, firewall rules with lint, what-if."""

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.shortcuts import render
from django.views.decorators.http import require_POST

from frontend.views import render_page
from netpolicy import rules as rule_service
from netpolicy.allocation import pool_usage
from netpolicy.compiler import analysis
from netpolicy.compiler.model import Category, PolicyError
from netpolicy.ir import build_site
from netpolicy.models import FirewallPolicy, Pool, Segment
from netpolicy.serializers import WhatIfSerializer
from tenants.access import is_site_admin, scope, tenant_ids


def _own_or_site(queryset, user, field: str = "tenant"):
    """The user's tenants' objects plus site-wide ones (site admins: everything)."""
    if is_site_admin(user):
        return queryset
    return queryset.filter(Q(**{f"{field}__in": tenant_ids(user)}) | Q(**{f"{field}__isnull": True}))


@login_required
def segment_list(request):
    """Segments of the user's tenants, with effective MTU and IPoIB warnings; pools' usage."""
    segments = scope(Segment.objects.select_related("tenant", "id_pool"), request.user)
    pools = [(p, pool_usage(p)) for p in _own_or_site(Pool.objects.all(), request.user)]
    context = {"segments": segments.order_by("tenant__slug", "name")[:500], "pools": pools}
    return render_page(request, "netpolicy/segment_list.html", context,
                       "netpolicy/partials/segment_table.html")


def _policies(user):
    """Visible policies in evaluation order: category, then sequence."""
    policies = _own_or_site(FirewallPolicy.objects.select_related("tenant")
                            .prefetch_related("rules__sources", "rules__destinations",
                                              "rules__services"), user)
    order = {c.value: c.rank for c in Category}
    return sorted(policies, key=lambda p: (order[p.category], p.sequence, p.pk))


@login_required
def firewall(request):
    """Every visible policy and rule, with the analysis findings next to each rule."""
    policies = _policies(request.user)
    findings: dict = {}
    for tenant_id in {p.tenant_id for p in policies}:
        for finding in rule_service.findings_for(tenant_id):
            findings.setdefault(finding["rule"], []).append(finding)
    rows = [(p, [(r, findings.get(r.pk, [])) for r in p.rules.all()]) for p in policies]
    return render(request, "netpolicy/firewall.html", {"rows": rows, "form": {}})


@login_required
@require_POST
def what_if(request):
    """Answer one what-if question (htmx partial)."""
    serializer = WhatIfSerializer(data=request.POST)
    context = {"form": request.POST}
    if not serializer.is_valid():
        context["errors"] = {k: " ".join(map(str, v)) for k, v in serializer.errors.items()}
        return render(request, "netpolicy/partials/what_if.html", context)
    data = serializer.validated_data
    try:
        decision = analysis.what_if(build_site(), data["source"], data["destination"],
                                    data["protocol"], data.get("port"))
    except PolicyError as exc:
        context["errors"] = {"detail": str(exc)}
        return render(request, "netpolicy/partials/what_if.html", context)
    context["decision"] = decision
    context["where"] = rule_service.readable(decision.where)
    context["rule"] = _visible_rule(request.user, decision.rule)
    return render(request, "netpolicy/partials/what_if.html", context)


def _visible_rule(user, rule_id: str | None):
    """The deciding rule if the user may see it (another tenant's rule stays anonymous)."""
    from netpolicy.models import FirewallRule

    if not rule_id:
        return None
    rule = FirewallRule.objects.select_related("policy").filter(pk=int(rule_id[1:])).first()
    if rule and (is_site_admin(user) or rule.policy.tenant_id in tenant_ids(user) | {None}):
        return rule
    return "hidden"
