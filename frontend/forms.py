"""Forms of the portal pages; they validate input and hand it to the services."""

from django import forms
from django.conf import settings
from django.utils import timezone

from core.widgets import FastSelect, OfferedSelect, by_slug_when_long, unavailable_options
from tenants import offers
from tenants.access import visible_tenants
from tenants.choices import Interconnect, Role
from tenants.models import Quota, Tenant, VirtualCluster
from tenants.services import max_lease_end
from users.models import TokenScope

OFFERED_FIELDS = ("interconnect", "network_mode", "data_path", "gpu_mode")


def offer_site_options(form, site_offers: list) -> None:
    """Show what the site cannot realize as disabled options with the reason; vGPU profiles with what is free."""
    for name in OFFERED_FIELDS:
        if name in form.fields:
            field = form.fields[name]
            field.widget = OfferedSelect(choices=field.choices, unavailable=unavailable_options(site_offers, name))
    profiles = [p for site in site_offers for p in site.vgpu_profiles]
    if "vgpu_profile" in form.fields and profiles:
        choices = [("", "—")] + [(p["name"], f"{p['name']} ({p['framebuffer_gib']} GB, {p['free']} free)")
                                 for p in profiles]  # fmt: skip
        form.fields["vgpu_profile"] = forms.ChoiceField(choices=choices, required=False, label="vGPU profile")


# Where a new request's size starts (a small Slurm cluster the site's hosts fit); the quota panel shows the cost.
SIZE_DEFAULTS = {"worker_count": 2, "vcpus_per_node": 8, "memory_gb_per_node": 32}


class DateInput(forms.DateInput):
    input_type = "date"


class ClusterForm(forms.ModelForm):
    """A cluster request; tenants are limited to the user's own."""

    class Meta:
        model = VirtualCluster
        fields = [
            "tenant", "name", "workload_class", "worker_count", "vcpus_per_node", "memory_gb_per_node",
            "login_node", "interconnect", "network_mode", "data_path", "nic_type", "gpu_mode", "gpus_per_worker",
            "vgpu_profile", "lease_end", "justification",
        ]  # fmt: skip
        # FastSelect: a site admin's tenant list holds every tenant of the site
        widgets = {
            "lease_end": DateInput(),
            "justification": forms.Textarea(attrs={"rows": 3}),
            "tenant": FastSelect(label_field="slug"),
        }
        labels = {"worker_count": "Worker nodes", "vcpus_per_node": "vCPUs per node",
                  "memory_gb_per_node": "Memory per node (GB)", "nic_type": "Network adapter", "gpu_mode": "GPUs",
                  "gpus_per_worker": "GPUs per worker"}  # fmt: skip

    def __init__(self, *args, user=None, site_offers=None, **kwargs):
        super().__init__(*args, **kwargs)
        tenants = visible_tenants(user)
        self.fields["tenant"].queryset = tenants
        if len(tenants[:2]) == 1:  # a lone tenant is preselected
            self.fields["tenant"].initial = tenants[0].pk
        by_slug_when_long(self.fields["tenant"])  # a site admin may choose any of the site's tenants
        for name, value in SIZE_DEFAULTS.items():
            self.fields[name].initial = value
        self.site_offers = offers.site_offers() if site_offers is None else site_offers
        offer_site_options(self, self.site_offers)
        latest = max_lease_end()
        self.fields["lease_end"].widget.attrs["max"] = latest.isoformat()
        self.fields["lease_end"].help_text = f"At most {settings.LEASE_MAX_DAYS} days: {latest} or earlier."

    def clean_lease_end(self):
        lease_end = self.cleaned_data["lease_end"]
        if lease_end <= timezone.localdate():
            raise forms.ValidationError("The lease end must be a date in the future.")
        if lease_end > max_lease_end():
            raise forms.ValidationError(
                f"Leases run at most {settings.LEASE_MAX_DAYS} days: choose {max_lease_end()} or earlier "
                "(a longer lease can be asked for later as an extension, with a justification)."
            )
        return lease_end

    def validate_unique(self):
        """Name uniqueness among live requests is the service's job (it names the conflict)."""


class RejectForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=4000)


class ExtendLeaseForm(forms.Form):
    lease_end = forms.DateField(widget=DateInput())
    justification = forms.CharField(max_length=4000, required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, latest=None, **kwargs):
        """`latest`: a hard limit (a catalog item's): the date picker offers nothing past it, and no justification."""
        super().__init__(*args, **kwargs)
        if latest:
            self.fields["lease_end"].widget.attrs["max"] = latest.isoformat()
            del self.fields["justification"]


class ResizeForm(forms.Form):
    worker_count = forms.IntegerField(min_value=1, max_value=1024, label="Workers")
    interconnect = forms.ChoiceField(choices=Interconnect.choices)

    def __init__(self, *args, site_offers=(), rules=None, **kwargs):
        super().__init__(*args, **kwargs)
        offer_site_options(self, list(site_offers))  # interconnects the site cannot realize: disabled, with why
        if rules is not None:
            self._within_catalog_item(rules)
        # The cluster's own interconnect stays selectable: a resize of the workers alone must still submit it.
        self.fields["interconnect"].widget.unavailable.pop(str(self.initial.get("interconnect", "")), None)

    def _within_catalog_item(self, rules: dict) -> None:
        """A catalog cluster's form offers only what its item version allows (the service checks it again)."""
        workers, interconnect = rules.get("worker_count") or {}, rules.get("interconnect") or {}
        if workers.get("editable"):
            low, high = workers["min"], workers["max"]
        else:
            low = high = workers.get("value", self.initial.get("worker_count"))
        self.fields["worker_count"].widget.attrs.update(min=low, max=high)
        self.fields["worker_count"].help_text = f"This cluster's catalog item allows {low} to {high}."
        allowed = interconnect.get("choices") if interconnect.get("editable") else [interconnect.get("value")]
        if interconnect:
            field = self.fields["interconnect"]
            field.choices = [(value, label) for value, label in field.choices if value in allowed]


class TokenForm(forms.Form):
    name = forms.CharField(max_length=64)
    scope = forms.ChoiceField(choices=TokenScope.choices, initial=TokenScope.READ, required=False)
    expires_at = forms.DateTimeField(
        required=False, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text="Empty: the site's default lifetime.",
    )  # fmt: skip

    def clean_expires_at(self):
        value = self.cleaned_data["expires_at"]
        if value and value <= timezone.now():
            raise forms.ValidationError("The expiry must be in the future.")
        return value


class TenantForm(forms.ModelForm):
    class Meta:
        model = Tenant
        fields = ["slug", "name", "description"]

    def validate_unique(self):
        """The service reports a taken slug."""


class QuotaForm(forms.ModelForm):
    class Meta:
        model = Quota
        fields = ["max_nodes", "max_vcpus", "max_memory_gb", "max_vfs", "max_segments", "max_pending_segments",
                  "max_gpus"]  # fmt: skip


class MembershipForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=Role.choices)
