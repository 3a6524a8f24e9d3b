"""The sign-in form: says why a directory sign-in failed, not only that it did."""

from django import forms
from django.contrib.auth.forms import AuthenticationForm

from identity import mapping
from identity.choices import RuleAction
from identity.models import GroupRule
from tenants.models import Tenant


class SignInForm(AuthenticationForm):
    def get_invalid_login_error(self):
        notice = getattr(self.request, "identity_notice", "")
        if notice:
            return forms.ValidationError(notice, code="directory")
        return super().get_invalid_login_error()


class GroupRuleForm(forms.ModelForm):
    """A site admin's rule: the group as the directory names it, and what it grants."""

    class Meta:
        model = GroupRule
        fields = ["group", "action", "tenant_slug", "create_tenant", "description"]
        labels = {"tenant_slug": "Tenant (slug)", "create_tenant": "Create the tenant when the group first signs in"}
        help_texts = {"group": "An LDAP group's full DN (cn=hpc-astro,ou=groups,dc=example,dc=org), matched exactly; "
                      "or a plain name (hpc-astro): the provider's group of that name, and an LDAP group's cn "
                      "only where the site set ENCLAVE_LDAP_MATCH_GROUP_CN=1"}  # fmt: skip

    def clean_group(self):
        raw = self.cleaned_data["group"]
        if any(ch in raw for ch in "\x00*()"):
            raise forms.ValidationError("Name one group: no wildcards, parentheses or control characters.")
        group = mapping.group_key(raw)
        if group is None:
            raise forms.ValidationError("Not a group name, nor a DN (RFC 4514: cn=...,ou=...,dc=...).")
        return group

    def clean(self):
        data = super().clean()
        action, slug = data.get("action"), data.get("tenant_slug", "")
        if action == RuleAction.SITE_ADMIN:
            if slug or data.get("create_tenant"):
                raise forms.ValidationError("A site-admin rule names no tenant.")
        elif action and not slug:
            self.add_error("tenant_slug", "Name the tenant this group's people join.")
        elif action and not data.get("create_tenant") and not Tenant.objects.filter(slug=slug).exists():
            self.add_error("tenant_slug", f"No tenant '{slug}'; tick 'create the tenant' to have it created.")
        return data
