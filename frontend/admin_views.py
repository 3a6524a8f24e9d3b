"""Pages for the audit log, API tokens and (for site admins) tenants and quotas."""

from django.apps import apps
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse

from audit import chain, export
from audit import diff as audit_diff
from audit.filtersets import AuditEventFilterSet
from audit.readers import visible_events
from core.errors import InvalidRequest
from core.paging import keyset, paginate
from core.views import ObjectActionView, ObjectEditView, PageView, attach_detail, service_call
from frontend.forms import MembershipForm, QuotaForm, TenantForm, TokenForm
from tenants import quotas, services
from tenants.access import is_site_admin, staff_member_required, tenant_ids, visible_tenants
from tenants.models import Membership, Tenant, VirtualCluster
from users import services as token_services
from users.models import APIToken, TokenScope

NAME_FIELDS = ("username", "slug", "name")  # what a person calls a referenced row, in this order


def _named_changes(events, user) -> None:
    """Each event's diff with foreign keys by name (`endorsed_by alice`), one query per referenced model."""
    wanted: dict = {}  # model -> ids
    per_event = []
    for event in events:
        refs, changes = {}, audit_diff.changes(event.before, event.after)
        for change in changes:
            model = _related_model(event.object_type, change.field)
            if model is not None:
                refs[change.field] = model
                for value in (change.before, change.after):
                    if value.isdigit():
                        wanted.setdefault(model, set()).add(int(value))
        per_event.append((refs, changes))
    names = {model: _names(model, ids, user) for model, ids in wanted.items()}
    for event, (refs, changes) in zip(events, per_event, strict=True):
        event.diff_rows = [
            audit_diff.Change(
                c.field, _name(names, refs.get(c.field), c.before), _name(names, refs.get(c.field), c.after)
            )
            for c in changes
        ]


def _related_model(object_type: str, field: str):
    """The model a snapshot's field points to (foreign keys are stored by id), or None."""
    try:
        found = apps.get_model(object_type)._meta.get_field(field)
    except (LookupError, ValueError, FieldDoesNotExist):
        return None
    return found.related_model if found.many_to_one or found.one_to_one else None


def _names(model, ids: set, user) -> dict:
    label = next((f for f in NAME_FIELDS if any(x.name == f for x in model._meta.concrete_fields)), None)
    if label is None:
        return {}
    rows = model.objects.filter(pk__in=ids)
    if model is Tenant and not is_site_admin(user):  # another tenant's name reaches site admins only
        rows = rows.filter(pk__in=tenant_ids(user))
    return {str(pk): name for pk, name in rows.values_list("pk", label)}


def _name(names: dict, model, value: str) -> str:
    return names.get(model, {}).get(value, value) if model is not None else value


class AuditListView(PageView):
    """Searchable audit log; the same filters drive the CSV/JSON export."""

    template_name = "frontend/audit_list.html"
    partial_name = "frontend/partials/audit_table.html"

    def get(self, request):
        filterset = AuditEventFilterSet(request.GET, queryset=visible_events(request.user))
        if request.GET.get("export") in ("csv", "json"):
            events = filterset.qs.order_by("-created", "-id")  # as the table reads: newest first
            download = export.json_response if request.GET["export"] == "json" else export.csv_response
            slugs = dict(visible_tenants(request.user).values_list("pk", "slug"))  # the reader's tenants only
            return download(events, tenant_names=slugs)
        pager = keyset(request, filterset.qs)  # a million events: index scans of one page, no COUNT
        _named_changes(pager.rows, request.user)
        query = request.GET.copy()
        for key in ("before", "after"):
            query.pop(key, None)
        context = {"filter": filterset, "events": pager.rows, "pager": pager, "query": query.urlencode(),
                   "tenants": visible_tenants(request.user).order_by("slug").only("pk", "slug")}  # fmt: skip
        if is_site_admin(request.user) and not request.htmx:
            context["chain"] = chain.status()  # cached: the newest links, plus the last full check
        return self.render(request, context)


class TokenListView(ObjectEditView):
    """The user's own API tokens; a new token's plaintext is shown once."""

    template_name = "frontend/tokens.html"
    form_error = staticmethod(attach_detail)

    def get_form(self, request):
        return TokenForm(request.POST or None)

    def save(self, request, form):
        name = form.cleaned_data["name"]
        if APIToken.objects.filter(user=request.user, name=name).exists():
            raise InvalidRequest("You already have a token with this name.", field="name")
        scope = form.cleaned_data["scope"] or TokenScope.READ
        return token_services.create_token(request.user, name, form.cleaned_data["expires_at"], scope)

    def saved(self, request, result):
        return self.render(request, self.get_context(request, form=TokenForm(), created=result[1]))

    def get_context(self, request, form=None, created=None) -> dict:
        pager = paginate(request, APIToken.objects.filter(user=request.user).select_related("user"))
        return {"form": form, "tokens": pager.rows, "pager": pager, "created": created}


class TokenRevokeView(ObjectActionView):
    def get_object(self, request, pk):
        return get_object_or_404(APIToken, pk=pk, user=request.user)

    def perform(self, request, token):
        return token_services.revoke_token(token)

    def success_message(self, token, result) -> str:
        return f"Token {token.name} revoked."

    def get_success_url(self, request, token, result=None) -> str:
        return reverse("frontend:tokens")


def _count_of(model):
    """A tenant's rows of `model`, counted for the rows of the page only (joins counted every tenant's)."""
    rows = model.objects.filter(tenant=OuterRef("pk")).order_by().values("tenant").annotate(n=Count("pk"))
    return Coalesce(Subquery(rows.values("n")), 0)


class TenantListView(ObjectEditView):
    """Every tenant with its members and clusters counted, and the form for a new one (site admins)."""

    decorators = (staff_member_required,)
    template_name = "frontend/tenant_list.html"

    def get_form(self, request):
        return TenantForm(request.POST or None)

    def save(self, request, form):
        return services.create_tenant(**form.cleaned_data)

    def form_error(self, form, exc) -> None:
        form.add_error("slug", exc.detail)

    def saved(self, request, tenant):
        messages.success(request, f"Tenant {tenant} created.")
        return redirect("frontend:tenant-detail", pk=tenant.pk)

    def get_context(self, request, form=None) -> dict:
        tenants = Tenant.objects.annotate(members=_count_of(Membership), cluster_count=_count_of(VirtualCluster))
        if request.GET.get("q"):
            tenants = tenants.filter(Q(slug__icontains=request.GET["q"]) | Q(name__icontains=request.GET["q"]))
        pager = paginate(request, tenants.order_by("slug"))
        return {"tenants": pager.rows, "pager": pager, "form": form}


class TenantDetailView(PageView):
    """A tenant's quota and members (site admins); each of the two forms posts on its own."""

    decorators = (staff_member_required,)
    template_name = "frontend/tenant_detail.html"

    def get(self, request, pk):
        tenant = get_object_or_404(Tenant, pk=pk)
        return self.render(request, self.get_context(request, tenant, *self._forms(request, tenant)))

    def post(self, request, pk):
        tenant = get_object_or_404(Tenant, pk=pk)
        quota_form, member_form = self._forms(request, tenant)
        if quota_form.is_bound and quota_form.is_valid():
            services.set_quota(tenant, **quota_form.cleaned_data)
            messages.success(request, "Quota updated.")
            return redirect("frontend:tenant-detail", pk=pk)
        if member_form.is_bound and member_form.is_valid() and self._add_member(tenant, member_form):
            return redirect("frontend:tenant-detail", pk=pk)
        return self.render(request, self.get_context(request, tenant, quota_form, member_form))

    @staticmethod
    def _forms(request, tenant):
        quota = QuotaForm(request.POST if "quota" in request.POST else None, instance=quotas.quota_of(tenant.pk))
        return quota, MembershipForm(request.POST if "member" in request.POST else None)

    @staticmethod
    def _add_member(tenant, form) -> bool:
        """Give the named user the role; a missing user or a refusal is shown next to the name."""
        user = get_user_model().objects.filter(username=form.cleaned_data["username"]).first()
        if user is None:
            form.add_error("username", "No such user.")
            return False
        _, error = service_call(services.set_membership, tenant, user, form.cleaned_data["role"])
        if error is not None:
            form.add_error("username", error.detail)
        return error is None

    def get_context(self, request, tenant, quota_form, member_form) -> dict:
        members = paginate(request, tenant.memberships.select_related("user").order_by("user__username"))
        return {"tenant": tenant, "quota_form": quota_form, "member_form": member_form,
                "members": members.rows, "pager": members}  # fmt: skip


class MembershipRemoveView(ObjectActionView):
    decorators = (staff_member_required,)

    def get_object(self, request, pk):
        return get_object_or_404(Membership, pk=pk)

    def perform(self, request, membership):
        return services.remove_membership(membership)

    def refused(self, request, membership, exc):
        messages.error(request, exc.detail)
        return redirect(self.get_success_url(request, membership))

    def get_success_url(self, request, membership, result=None) -> str:
        return reverse("frontend:tenant-detail", kwargs={"pk": membership.tenant_id})
