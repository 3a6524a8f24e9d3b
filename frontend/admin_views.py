"""Pages for the audit log, API tokens and (for site admins) tenants and quotas."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from audit import chain, export
from audit.filtersets import AuditEventFilterSet
from audit.models import AuditEvent
from frontend.forms import MembershipForm, QuotaForm, TenantForm, TokenForm
from portal.errors import ServiceError
from portal.pages import render_page
from portal.paging import keyset, paginate
from tenants import quotas, services
from tenants.access import is_site_admin, staff_member_required, tenant_ids
from tenants.models import Membership, Tenant, VirtualCluster
from users import services as token_services
from users.models import APIToken, TokenScope


def visible_events(user):
    if is_site_admin(user):
        return AuditEvent.objects.all()
    return AuditEvent.objects.filter(Q(tenant_id__in=tenant_ids(user)) | Q(actor=user))


@login_required
def audit_list(request):
    """Searchable audit log; the same filters drive the CSV/JSON export."""
    filterset = AuditEventFilterSet(request.GET, queryset=visible_events(request.user))
    if request.GET.get("export") in ("csv", "json"):
        events = filterset.qs.order_by("created", "id")
        return export.json_response(events) if request.GET["export"] == "json" else export.csv_response(events)
    pager = keyset(request, filterset.qs)  # a million events: index scans of one page, no COUNT
    query = request.GET.copy()
    for key in ("before", "after"):
        query.pop(key, None)
    context = {"filter": filterset, "events": pager.rows, "pager": pager, "query": query.urlencode()}
    if is_site_admin(request.user) and not request.htmx:
        context["chain"] = chain.status()  # cached: the newest links, plus the last full check
    return render_page(request, "frontend/audit_list.html", context, "frontend/partials/audit_table.html")


@login_required
def token_list(request):
    """The user's own API tokens; a new token's plaintext is shown once."""
    form = TokenForm(request.POST or None)
    created = None
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data["name"]
        if APIToken.objects.filter(user=request.user, name=name).exists():
            form.add_error("name", "You already have a token with this name.")
        else:
            try:
                _, created = token_services.create_token(
                    request.user, name, form.cleaned_data["expires_at"], form.cleaned_data["scope"] or TokenScope.READ
                )
            except ServiceError as exc:
                form.add_error(exc.field, exc.detail)
            else:
                form = TokenForm()
    pager = paginate(request, APIToken.objects.filter(user=request.user).select_related("user"))
    return render(request, "frontend/tokens.html", {"form": form, "tokens": pager.rows, "pager": pager,
                                                    "created": created})  # fmt: skip


@login_required
@require_POST
def token_revoke(request, pk):
    token = get_object_or_404(APIToken, pk=pk, user=request.user)
    token_services.revoke_token(token)
    messages.success(request, f"Token {token.name} revoked.")
    return redirect("frontend:tokens")


def _count_of(model):
    """A tenant's rows of `model`, counted for the rows of the page only (joins counted every tenant's)."""
    rows = model.objects.filter(tenant=OuterRef("pk")).order_by().values("tenant").annotate(n=Count("pk"))
    return Coalesce(Subquery(rows.values("n")), 0)


@staff_member_required
def tenant_list(request):
    form = TenantForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tenant = services.create_tenant(**form.cleaned_data)
        except ServiceError as exc:
            form.add_error("slug", exc.detail)
        else:
            messages.success(request, f"Tenant {tenant} created.")
            return redirect("frontend:tenant-detail", pk=tenant.pk)
    tenants = Tenant.objects.annotate(members=_count_of(Membership), cluster_count=_count_of(VirtualCluster))
    if request.GET.get("q"):
        tenants = tenants.filter(Q(slug__icontains=request.GET["q"]) | Q(name__icontains=request.GET["q"]))
    pager = paginate(request, tenants.order_by("slug"))
    return render(request, "frontend/tenant_list.html", {"tenants": pager.rows, "pager": pager, "form": form})


@staff_member_required
def tenant_detail(request, pk):
    tenant = get_object_or_404(Tenant, pk=pk)
    quota_form = QuotaForm(request.POST if "quota" in request.POST else None, instance=quotas.quota_of(tenant.pk))
    member_form = MembershipForm(request.POST if "member" in request.POST else None)
    if quota_form.is_bound and quota_form.is_valid():
        services.set_quota(tenant, **quota_form.cleaned_data)
        messages.success(request, "Quota updated.")
        return redirect("frontend:tenant-detail", pk=pk)
    if member_form.is_bound and member_form.is_valid():
        user = get_user_model().objects.filter(username=member_form.cleaned_data["username"]).first()
        if user is None:
            member_form.add_error("username", "No such user.")
        else:
            try:
                services.set_membership(tenant, user, member_form.cleaned_data["role"])
            except ServiceError as exc:
                member_form.add_error("username", exc.detail)
            else:
                return redirect("frontend:tenant-detail", pk=pk)
    members = paginate(request, tenant.memberships.select_related("user").order_by("user__username"))
    context = {"tenant": tenant, "quota_form": quota_form, "member_form": member_form,
               "members": members.rows, "pager": members}  # fmt: skip
    return render(request, "frontend/tenant_detail.html", context)


@staff_member_required
@require_POST
def membership_remove(request, pk):
    membership = get_object_or_404(Membership, pk=pk)
    try:
        services.remove_membership(membership)
    except ServiceError as exc:
        messages.error(request, exc.detail)
    return redirect("frontend:tenant-detail", pk=membership.tenant_id)
