"""htmx pages of the firewall: policies and rules with lint, groups, the service catalogue, what-if."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse

from core.errors import Forbidden, ServiceError
from core.paging import paginate
from core.views import ObjectActionView, ObjectDeleteView, ObjectEditView, PageView, service_call
from netpolicy import findings, firewall_page, policy, service_requests, whatif
from netpolicy import rules as rule_service
from netpolicy.forms import GroupAddressForm, GroupCreateForm, RuleForm, ServiceForm, ServiceRequestForm
from netpolicy.ir import Builder
from netpolicy.models import FirewallPolicy, FirewallRule, Group, Service
from netpolicy.serializers import WhatIfSerializer
from netpolicy.views import own_or_site, refused_page
from tenants.access import is_site_admin, staff_member_required, tenant_ids, viewer, visible_tenants
from tenants.choices import Role


def _findings(user, tenant_ids_) -> findings.Findings:
    """Lint of these tenants' rules (None: site policies) as the user may read it; never fails on a broken tenant."""
    return findings.findings(set(tenant_ids_), viewer(user))


class FirewallView(PageView):
    """One tenant's policies and rules (or the site's) with lint; admins search tenants and filter."""

    template_name = "netpolicy/firewall.html"

    def get_context(self, request) -> dict:
        return firewall_page.context(request)


class WhatIfView(PageView):
    """Answer one what-if question: the partial for htmx, the whole page without JavaScript."""

    http_method_names = ["post"]
    template_name = "netpolicy/firewall.html"
    partial_name = "netpolicy/partials/what_if.html"

    def post(self, request):
        answer, status = _what_if_answer(request.user, request.POST)
        context = {"form": request.POST, **answer}
        if not request.htmx:
            context = {**firewall_page.context(request), **context}
        response = self.render(request, context)
        response.status_code = status
        return response


def _what_if_answer(user, data) -> tuple[dict, int]:
    """The answer (or the errors, shown like a form's) and the page's status: a refused question is a 403."""
    serializer = WhatIfSerializer(data=data)
    if not serializer.is_valid():
        return {"errors": {k: " ".join(map(str, v)) for k, v in serializer.errors.items()}}, 200
    data = serializer.validated_data
    try:  # a refusal here is an answer with its own status, not a message
        return {
            "answer": whatif.answer(user, data["source"], data["destination"], data["protocol"], data.get("port"))
        }, 200
    except ServiceError as exc:
        return {"errors": {"detail": exc.text}}, exc.status_code if exc.status_code in (403, 409) else 200


def _rule_url(user, rule: FirewallRule) -> str:
    """The firewall page of the rule's tenant, at the rule."""
    return reverse("netpolicy:rule-list") + firewall_page.url_for(user, rule.policy.tenant_id) + f"#rule-{rule.pk}"


def _groups_url(user, tenant_id) -> str:
    return reverse("netpolicy:rule-list") + firewall_page.url_for(user, tenant_id) + "#groups"


class _EditorPage:
    """A page of one tenant's (or the site's) policy: found (else 404), then only its editors (else a 403 page)."""

    def get_target(self, request, pk):
        """The object the page is about; its `editor_tenant_id` is whose editors may use the page."""
        raise NotImplementedError

    def dispatch(self, request, *args, **kwargs):
        if request.method.lower() not in self.http_method_names:
            return self.http_method_not_allowed(request, *args, **kwargs)
        self.target = self.get_target(request, **kwargs)
        _, refusal = service_call(policy.require_editor, request.user, self.editor_tenant_id)
        if refusal is not None:  # a 403 page, not a message
            return refused_page(request, refusal)
        return super().dispatch(request, *args, **kwargs)


class _RuleFormView(_EditorPage, ObjectEditView):
    """Create or edit a rule through the rules service; refusals come back next to the fields."""

    template_name = "netpolicy/rule_form.html"
    instance = None

    def get_form(self, request, pk):
        initial = {"action": request.GET.get("action")} if self.instance is None else {}
        return RuleForm(request.POST or None, instance=self.instance, user=request.user, policy=self.policy,
                        initial=initial)  # fmt: skip

    def save(self, request, form):
        fresh = FirewallRule.objects.get(pk=self.instance.pk) if self.instance else None  # form mutated instance
        return rule_service.save_rule(request.user, form.service_data(), fresh)

    def saved(self, request, rule, pk):
        """Back to the firewall page at the rule, with its lint in the message as well."""
        found = _findings(request.user, [rule.policy.tenant_id]).for_rule(rule.pk, rule.policy.tenant_id)
        lint = "; ".join(f"{f['kind']}: {f['message']}" for f in found) or "no findings"
        (messages.warning if found else messages.success)(request, f"Saved rule '{rule.name}' — lint: {lint}")
        return redirect(_rule_url(request.user, rule))

    def get_context(self, request, form=None, pk=None) -> dict:
        tenant_id, instance = self.policy.tenant_id, self.instance
        found = _findings(request.user, [tenant_id]).for_rule(instance.pk, tenant_id) if instance else []
        return {"form": form, "policy": self.policy, "rule": instance, "findings": found}


class RuleCreateView(_RuleFormView):
    def get_target(self, request, pk):
        self.policy = get_object_or_404(own_or_site(FirewallPolicy.objects.all(), request.user), pk=pk)
        self.editor_tenant_id = self.policy.tenant_id
        return self.policy


def _get_rule(user, pk) -> FirewallRule:
    rules = own_or_site(FirewallRule.objects.select_related("policy__tenant"), user, "policy__tenant")
    return get_object_or_404(rules, pk=pk)


class RuleEditView(_RuleFormView):
    def get_target(self, request, pk):
        self.instance = _get_rule(request.user, pk)
        self.policy = self.instance.policy
        self.editor_tenant_id = self.policy.tenant_id
        return self.instance


class RuleMoveView(ObjectActionView):
    """Move a rule up or down within its policy; it keeps its id."""

    def get_object(self, request, pk):
        return _get_rule(request.user, pk)

    def post(self, request, pk):
        if request.POST.get("direction") not in ("up", "down"):
            self.get_object(request, pk)
            messages.error(request, "Say whether the rule moves up or down.")
            return redirect("netpolicy:rule-list")
        return super().post(request, pk=pk)

    def perform(self, request, rule):
        return rule_service.move_rule(request.user, rule, request.POST["direction"] == "up")

    def refused(self, request, rule, exc: ServiceError):
        return refused_page(request, exc) if isinstance(exc, Forbidden) else super().refused(request, rule, exc)

    def get_success_url(self, request, rule, result=None) -> str:
        return _rule_url(request.user, result or rule)


class GroupEditView(_EditorPage, ObjectEditView):
    """Set a group's explicit addresses (site groups: admins; tenant groups: owners and admins)."""

    template_name = "netpolicy/group_form.html"

    def get_target(self, request, pk):
        self.group = get_object_or_404(own_or_site(Group.objects.select_related("tenant"), request.user), pk=pk)
        self.editor_tenant_id = self.group.tenant_id
        return self.group

    def get_form(self, request, pk):
        initial = {"cidrs": "\n".join(self.group.cidrs), "description": self.group.description}
        return GroupAddressForm(request.POST or None, initial=initial)

    def save(self, request, form):
        return policy.save_group(request.user, dict(form.cleaned_data), self.group)

    def saved(self, request, result, pk):
        messages.success(request, f"Addresses of {self.group} saved.")
        return redirect(reverse("netpolicy:rule-list") + "#groups")

    def get_context(self, request, form=None, pk=None) -> dict:
        group = self.group
        derived = Builder([group.tenant_id] if group.tenant_id else []).group(group).cidrs if group.derived_from else ()
        return {"form": form, "group": group, "derived": derived}


class GroupCreateView(_EditorPage, ObjectEditView):
    """A tenant owner adds a group of explicit addresses (a partner network) to the tenant."""

    template_name = "netpolicy/group_form.html"

    def get_target(self, request, pk):
        self.tenant = get_object_or_404(visible_tenants(request.user), pk=pk)
        self.editor_tenant_id = self.tenant.pk
        return self.tenant

    def get_form(self, request, pk):
        return GroupCreateForm(request.POST or None)

    def save(self, request, form):
        return policy.save_group(request.user, {"tenant": self.tenant, **form.cleaned_data})

    def saved(self, request, group, pk):
        messages.success(request, f"Group {group} created; name it in a rule to use it.")
        return redirect(_groups_url(request.user, self.tenant.pk))

    def get_context(self, request, form=None, pk=None) -> dict:
        return {"form": form, "tenant": self.tenant}


class _ConfirmDeleteView(_EditorPage, ObjectDeleteView):
    """GET: the confirmation page; POST: delete through the service (a 403 page when not the editor)."""

    template_name = "netpolicy/confirm_delete.html"

    def get_object(self, request, pk):
        return self.target

    def refused(self, request, obj, exc: ServiceError):
        return refused_page(request, exc) if isinstance(exc, Forbidden) else super().refused(request, obj, exc)


class GroupDeleteView(_ConfirmDeleteView):
    """Delete a group no rule names, after a confirmation."""

    what = "group"

    def get_target(self, request, pk):
        group = get_object_or_404(own_or_site(Group.objects.select_related("tenant"), request.user), pk=pk)
        self.editor_tenant_id = group.tenant_id
        return group

    def perform(self, request, group):
        return policy.delete_group(request.user, group)

    def get_success_url(self, request, group, result=None) -> str:
        return _groups_url(request.user, group.tenant_id)


class RuleDeleteView(_ConfirmDeleteView):
    """Delete a rule, after a confirmation."""

    what = "rule"

    def get_target(self, request, pk):
        rule = _get_rule(request.user, pk)
        self.editor_tenant_id = rule.policy.tenant_id
        return rule

    def perform(self, request, rule):
        return rule_service.delete_rule(request.user, rule)

    def get_success_url(self, request, rule, result=None) -> str:
        return reverse("netpolicy:rule-list") + firewall_page.url_for(request.user, rule.policy.tenant_id)


class ServiceCreateView(ObjectEditView):
    """Add a service to the catalogue (ports are checked: 1..65535, ranges not inverted)."""

    decorators = (staff_member_required,)
    template_name = "netpolicy/service_form.html"

    def get_form(self, request):
        # A PI's request links here with the service filled in (netpolicy.service_requests).
        prefill = {k: v for k, v in request.GET.items() if k in ServiceForm.Meta.fields}
        return ServiceForm(request.POST or None, initial=prefill)

    def save(self, request, form):
        return policy.save_service(request.user, dict(form.cleaned_data))

    def saved(self, request, service):
        messages.success(request, f"Service {service} added.")
        return redirect("netpolicy:service-create")

    def get_context(self, request, form=None) -> dict:
        pager = paginate(request, Service.objects.all())
        return {"form": form, "services": pager.rows, "pager": pager}


class ServiceRequestView(ObjectEditView):
    """A tenant owner (PI) asks the site admins for a new service; the catalogue is shown beside the form."""

    template_name = "netpolicy/service_request.html"

    def get_form(self, request):
        if not hasattr(self, "form"):  # POST asks first whether there is a form at all
            self.form = self._form(request)
        return self.form

    def _form(self, request):
        owned = visible_tenants(request.user).filter(pk__in=tenant_ids(request.user, Role.OWNER)).order_by("slug")
        if not owned.exists():
            return None
        return ServiceRequestForm(request.POST or None, tenants=owned, initial={"tenant": owned.first()})

    def post(self, request):
        if self.get_form(request) is None:
            return refused_page(request, Forbidden("Only a tenant owner (PI) asks for new services."))
        return super().post(request)

    def save(self, request, form):
        data = dict(form.cleaned_data)
        tenant, justification = data.pop("tenant"), data.pop("justification")
        service_requests.request_service(request.user, tenant, data, justification)
        return data["name"]

    def saved(self, request, name):
        messages.success(request, f"Asked the site admins for the service {name}; you will hear when "
                         "it is in the catalogue.")  # fmt: skip
        return redirect("netpolicy:service-request")

    def get_context(self, request, form=None) -> dict:
        pager = paginate(request, Service.objects.all())
        return {"form": form, "services": pager.rows, "pager": pager, "is_admin": is_site_admin(request.user)}
