"""Site admins' page of directory group rules (list, add, delete)."""

from django.contrib import messages
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse

from core.paging import paginate
from core.views import ObjectActionView, ObjectEditView
from identity import services
from identity.forms import GroupRuleForm
from identity.models import DirectoryAccount, GroupRule
from tenants.access import staff_member_required


class RuleListView(ObjectEditView):
    """The directory group rules, searchable, and the form for a new one."""

    decorators = (staff_member_required,)
    template_name = "identity/rule_list.html"

    def get_form(self, request):
        return GroupRuleForm(request.POST or None)

    def save(self, request, form):
        return services.create_rule(request.user, form.cleaned_data)

    def saved(self, request, rule):
        messages.success(request, f"Rule added: {rule}. It applies at each member's next sign-in or re-sync.")
        return redirect("identity:rule-list")

    def get_context(self, request, form=None) -> dict:
        rules = GroupRule.objects.all()
        if query := request.GET.get("q", "").strip():
            rules = rules.filter(Q(group__icontains=query) | Q(tenant_slug__icontains=query))
        pager = paginate(request, rules.order_by("group", "action", "tenant_slug"))
        return {"rules": pager.rows, "pager": pager, "form": form,
                "directory_users": DirectoryAccount.objects.count()}  # fmt: skip


class RuleDeleteView(ObjectActionView):
    """Remove a rule (audited); members keep what it gave them until their next sign-in or re-sync."""

    decorators = (staff_member_required,)

    def get_object(self, request, pk):
        return get_object_or_404(GroupRule, pk=pk)

    def perform(self, request, rule):
        return services.delete_rule(request.user, rule)

    def success_message(self, rule, result) -> str:
        return f"Rule removed: {rule}."

    def get_success_url(self, request, rule, result=None) -> str:
        return reverse("identity:rule-list")
