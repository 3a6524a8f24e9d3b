"""The webhook form: conditions typed as comma-separated names; the service checks everything again."""

from django import forms

from tenants.models import Tenant
from webhooks.choices import SUBSCRIBABLE

SITE = "site"


def _names(text: str) -> list[str]:
    return [n.strip() for n in (text or "").split(",") if n.strip()]


class WebhookForm(forms.Form):
    """Create or edit a webhook; `tenants` are the choices the user may pick (site admins also "site")."""

    tenant = forms.ChoiceField(help_text="Whose events; a site webhook hears every tenant's (site admins).")
    name = forms.CharField(max_length=63, help_text="Lowercase letters, digits and '-'.")
    url = forms.CharField(max_length=2000, label="URL", help_text="https:// endpoint; redirects are not followed.",
                          widget=forms.PasswordInput(render_value=False))  # fmt: skip
    events = forms.MultipleChoiceField(choices=[(t.value, t.label) for t in SUBSCRIBABLE],
                                       widget=forms.CheckboxSelectMultiple)  # fmt: skip
    states = forms.CharField(required=False, help_text="Only these target states, comma-separated (e.g. ready, error).")
    objects = forms.CharField(required=False, help_text="Only these objects, comma-separated (e.g. astro/mpi-1).")
    tenants = forms.CharField(required=False, help_text="Site webhooks: only these tenants, comma-separated slugs.")
    enabled = forms.BooleanField(required=False, initial=True)

    def __init__(self, *args, tenants=(), site=False, editing=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.by_slug = site  # site admins: any of thousands of tenants, named by slug
        if site:
            help_text = "“site” for every tenant's events, or one tenant's slug."
            self.fields["tenant"] = forms.CharField(max_length=63, initial=SITE, help_text=help_text)
        else:
            self.fields["tenant"].choices = [(str(t.pk), t.slug) for t in tenants]
        if editing:
            del self.fields["tenant"]
            self.fields["url"].required = False
            self.fields[
                "url"
            ].help_text = "Leave empty to keep the current URL (it is never shown again: it may hold a secret)."
        if not site:
            del self.fields["tenants"]

    def service_data(self) -> dict:
        """The service's input: events, conditions only where given."""
        data = self.cleaned_data
        conditions = {key: _names(data.get(key)) for key in ("states", "objects", "tenants") if _names(data.get(key))}
        kept = {"url": data["url"]} if data.get("url") else {}  # an empty URL on the edit form keeps the current one
        return {"name": data["name"], **kept, "events": data["events"], "conditions": conditions,
                "enabled": data["enabled"]}  # fmt: skip

    def clean_tenant(self):
        value = self.cleaned_data["tenant"].strip()
        if value == SITE or not self.by_slug:
            return value
        found = Tenant.objects.filter(slug=value).values_list("pk", flat=True).first()
        if found is None:
            raise forms.ValidationError(f"No tenant {value!r}: give a tenant's slug, or “site”.")
        return str(found)

    def tenant_id(self) -> int | None:
        value = self.cleaned_data["tenant"]
        return None if value == SITE else int(value)


def initial(hook) -> dict:
    """A webhook's values as the form shows them."""
    c = hook.conditions or {}
    return {"name": hook.name, "events": hook.events, "enabled": hook.enabled,
            **{key: ", ".join(c.get(key, [])) for key in ("states", "objects", "tenants")}}  # fmt: skip
