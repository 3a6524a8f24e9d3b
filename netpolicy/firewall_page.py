"""The firewall page's content: one tenant (or the site policies) at a time, searched and filtered,
one page of rules at a time, so its cost does not grow with the number of tenants or rules."""

from django.db.models import Case, Count, IntegerField, Max, Min, Q, Value, When
from django.http import Http404

from core.paging import paginate
from netpolicy import findings as lint
from netpolicy.choices import Action, Category
from netpolicy.compiler.model import Category as IRCategory
from netpolicy.models import FirewallPolicy, FirewallRule, Group
from netpolicy.rule_members import attach_members
from tenants.access import is_site_admin, tenant_ids, viewer
from tenants.choices import Role
from tenants.models import Tenant

SITE = "site"  # ?tenant=site: the site-wide policies
RANK = Case(*[When(policy__category=c.value, then=Value(c.rank)) for c in IRCategory], output_field=IntegerField())


def scope(request) -> int | None:
    """The tenant shown (?tenant=<id>), None for the site policies; another tenant's id is a 404."""
    user, wanted = request.user, request.GET.get("tenant", "")
    own = sorted(tenant_ids(user))
    if wanted == SITE:
        return None
    if wanted.isdigit():
        if is_site_admin(user) or int(wanted) in own:
            return int(wanted)
        raise Http404("No such tenant.")
    return None if is_site_admin(user) or not own else own[0]


def url_for(user, tenant_id) -> str:
    """The page's query string showing this tenant (empty when it is the user's default)."""
    own = sorted(tenant_ids(user))
    default = None if is_site_admin(user) or not own else own[0]
    if tenant_id == default:
        return ""
    return f"?tenant={tenant_id if tenant_id is not None else SITE}"


def _rules(tenant_id, request):
    """The scope's rules in evaluation order (site policies interleave with the tenant's), filtered."""
    owners = Q(policy__tenant__isnull=True) | (Q(policy__tenant=tenant_id) if tenant_id else Q(pk__in=[]))
    rules = FirewallRule.objects.filter(owners).select_related("policy__tenant")
    get = request.GET.get
    if get("category") in Category.values:
        rules = rules.filter(policy__category=get("category"))
    if get("action") in Action.values:
        rules = rules.filter(action=get("action"))
    if get("state") in ("enabled", "disabled"):
        rules = rules.filter(enabled=get("state") == "enabled")
    if get("q"):
        rules = rules.filter(Q(name__icontains=get("q")) | Q(description__icontains=get("q")))
    return rules.order_by(RANK, "policy__sequence", "policy_id", "sequence", "pk")


def _policies(tenant_id):
    mine = Q(tenant__isnull=True) | (Q(tenant=tenant_id) if tenant_id else Q(pk__in=[]))
    rank = Case(*[When(category=c.value, then=Value(c.rank)) for c in IRCategory], output_field=IntegerField())
    return (FirewallPolicy.objects.filter(mine).select_related("tenant").annotate(rule_count=Count("rules"))
            .order_by(rank, "sequence", "pk"))  # fmt: skip


def context(request) -> dict:
    """Everything the page shows for the chosen scope."""
    user = request.user
    admin, owned = is_site_admin(user), tenant_ids(user, Role.OWNER)
    tenant_id = scope(request)
    editable = lambda tid: admin or (tid is not None and tid in owned)  # noqa: E731
    rules = paginate(request, _rules(tenant_id, request))
    attach_members(rules.rows)
    ends = {
        r["policy"]: (r["lo"], r["hi"])
        for r in FirewallRule.objects.filter(policy__in={r.policy_id for r in rules.rows})
        .values("policy")
        .annotate(lo=Min("sequence"), hi=Max("sequence"))
    }
    found = lint.findings({tenant_id, None}, viewer(request.user)) if rules.rows else lint.Findings()
    rows = [(r, editable(r.policy.tenant_id), found.for_rule(r.pk, r.policy.tenant_id), ends[r.policy_id])
            for r in rules.rows]  # fmt: skip
    policies = paginate(request, _policies(tenant_id), 20, param="policies")
    policies = [(p, editable(p.tenant_id)) for p in policies.rows], policies
    groups = Group.objects.filter(Q(tenant__isnull=True) | (Q(tenant=tenant_id) if tenant_id else Q(pk__in=[])))
    groups = paginate(request, groups.select_related("tenant", "segment").order_by("tenant_id", "name"), param="groups")
    return {"rows": rows, "pager": rules, "policies": policies[0], "policy_pager": policies[1],
            "groups": [(g, editable(g.tenant_id)) for g in groups.rows], "group_pager": groups,
            "tenant": Tenant.objects.filter(pk=tenant_id).first() if tenant_id else None,
            "tenant_editable": tenant_id is not None and editable(tenant_id),
            "tenant_choices": _choices(request, admin), "is_admin": admin, "form": {},
            "categories": Category.choices, "actions": Action.choices,
            "broken": sorted(set(found.broken.values()))}  # fmt: skip


def _choices(request, admin: bool):
    """Tenants to switch to: admins search all of them (a page of matches), others see their own."""
    if not admin:
        return Tenant.objects.filter(pk__in=tenant_ids(request.user)).order_by("slug")[:100]
    query = request.GET.get("find", "")
    if not query:
        return []
    matches = Tenant.objects.filter(Q(slug__icontains=query) | Q(name__icontains=query)).order_by("slug")
    return paginate(request, matches, 20, param="found").rows
