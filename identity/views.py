"""Site admins' page of directory group rules (list, add, delete)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import LoginView
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from core.paging import paginate
from identity import services
from identity.forms import GroupRuleForm, SignInForm
from identity.models import DirectoryAccount, GroupRule
from tenants.access import staff_member_required


@staff_member_required
def rule_list(request):
    form = GroupRuleForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        rule = services.create_rule(request.user, form.cleaned_data)
        messages.success(request, f"Rule added: {rule}. It applies at each member's next sign-in or re-sync.")
        return redirect("identity:rule-list")
    rules = GroupRule.objects.all()
    if query := request.GET.get("q", "").strip():
        rules = rules.filter(Q(group__icontains=query) | Q(tenant_slug__icontains=query))
    pager = paginate(request, rules.order_by("group", "action", "tenant_slug"))
    context = {"rules": pager.rows, "pager": pager, "form": form,
               "directory_users": DirectoryAccount.objects.count()}  # fmt: skip
    return render(request, "identity/rule_list.html", context)


@staff_member_required
@require_POST
def rule_delete(request, pk):
    rule = get_object_or_404(GroupRule, pk=pk)
    services.delete_rule(request.user, rule)
    messages.success(request, f"Rule removed: {rule}.")
    return redirect("identity:rule-list")


class SignInView(LoginView):
    """The login page: the password form, and the provider's button when OpenID Connect is on."""

    template_name = "frontend/login.html"
    authentication_form = SignInForm

    def get_context_data(self, **kwargs):
        return super().get_context_data(**kwargs) | {
            "oidc_enabled": getattr(settings, "OIDC_ENABLED", False),
            "oidc_provider_name": getattr(settings, "OIDC_PROVIDER_NAME", ""),
        }
