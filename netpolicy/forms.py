"""Forms of the network pages; they check input and hand it to the netpolicy services."""

from django import forms
from django.db.models import Q

from core.fields import clean_network
from core.widgets import FastSelect, by_slug_when_long
from netpolicy import node_pools
from netpolicy.choices import VLAN_MAX, VLAN_MIN, VNI_MAX, VNI_MIN, Action, PoolKind, Protocol, SegmentKind
from netpolicy.models import FirewallRule, Group, Pool, Segment, Service, ir_name
from tenants.access import is_site_admin, visible_tenants


def strict_network(text: str) -> str:
    """A canonical network (core.addresses), or a ValidationError naming the value."""
    return clean_network(text.strip())


class ServiceChecked:
    """Model forms whose cross-field constraints the service checks (and names) at submit."""

    service_checked: tuple = ()

    def _get_validation_exclusions(self):
        # Django's model constraints would otherwise surface as "Constraint … is violated".
        return super()._get_validation_exclusions() | set(self.service_checked)


class SegmentForm(ServiceChecked, forms.ModelForm):
    """A segment request; ids and subnet are optional (next-free from the pools when empty)."""

    vlan_id = forms.IntegerField(
        required=False,
        min_value=VLAN_MIN,
        max_value=VLAN_MAX,
        label="VLAN id",
        help_text="Empty: next free from the pools",
    )
    vni = forms.IntegerField(
        required=False, min_value=VNI_MIN, max_value=VNI_MAX, label="VNI", help_text="Empty: next free from the pools"
    )
    subnet = forms.CharField(required=False, help_text="Empty: next free from the pools")
    # Not a field of Segment: agents holds the link (netpolicy.node_pools), the service stores it.
    node_pool = forms.ModelChoiceField(
        queryset=None,
        required=False,
        label="Linux node pool",
        help_text="Where an overlay is realized (VRF + VXLAN on the nodes)",
    )
    service_checked = ("kind", "vlan_id", "vni", "subnet")

    class Meta:
        model = Segment
        fields = [
            "tenant",
            "name",
            "kind",
            "vlan_id",
            "vni",
            "subnet",
            "mtu",
            "data_path",
            "vsphere_cluster",
            "node_pool",
        ]
        labels = {"mtu": "MTU", "vsphere_cluster": "vSphere cluster"}
        widgets = {"tenant": FastSelect(label_field="slug")}  # a site admin's list holds every tenant of the site
        help_texts = {
            "vsphere_cluster": "Where a VLAN segment is realized",
        }

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        tenants = visible_tenants(user)
        self.fields["tenant"].queryset = tenants
        if len(tenants[:2]) == 1:
            self.fields["tenant"].initial = tenants[0]
        by_slug_when_long(self.fields["tenant"])  # a site admin may choose any of the site's tenants
        self.fields["node_pool"].queryset = node_pools.queryset()
        self.fields["kind"].initial = SegmentKind.VLAN

    def clean_subnet(self):
        text = self.cleaned_data["subnet"]
        return strict_network(text) if text.strip() else ""

    def clean(self):
        data = super().clean()
        if data.get("node_pool") and data.get("kind") != SegmentKind.OVERLAY:
            self.add_error("node_pool", "Linux node pools realize overlay segments only.")
        return data

    def service_data(self) -> dict:
        """The service's input: only the id column that matches the kind."""
        data = {k: v for k, v in self.cleaned_data.items() if k != "tenant"}
        drop = "vni" if data["kind"] == SegmentKind.VLAN else "vlan_id"
        data.pop(drop, None)
        return {k: v for k, v in data.items() if v not in (None, "")}

    def validate_unique(self):
        """Live names are unique per tenant; the service and the database say so."""


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=2000)


class PoolForm(ServiceChecked, forms.ModelForm):
    """A pool (site admins): first/last for VLAN and VNI pools, a supernet for the others."""

    cidr = forms.CharField(required=False, label="Supernet")
    service_checked = ("kind", "first", "last", "cidr")

    class Meta:
        model = Pool
        fields = [
            "name",
            "kind",
            "first",
            "last",
            "cidr",
            "default_prefix_length",
            "min_prefix_length",
            "routing_domain",
            "tenant",
            "description",
        ]
        widgets = {"description": forms.Textarea(attrs={"rows": 2}), "tenant": FastSelect(label_field="slug")}
        help_texts = {"tenant": "The one tenant that may use this pool; empty: a site pool."}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        by_slug_when_long(self.fields["tenant"])

    def clean_cidr(self):
        text = self.cleaned_data["cidr"]
        return strict_network(text) if text.strip() else None

    def clean(self):
        data = super().clean()
        bounds = {PoolKind.VLAN: (VLAN_MIN, VLAN_MAX), PoolKind.VNI: (VNI_MIN, VNI_MAX)}
        low, high = bounds.get(data.get("kind"), (None, None))
        for name in ("first", "last") if low is not None else ():
            value = data.get(name)
            if value is not None and not low <= value <= high:
                self.add_error(name, f"Must be between {low} and {high}.")
        return data

    def service_data(self) -> dict:
        return {k: v for k, v in self.cleaned_data.items() if v not in (None, "")}

    def validate_unique(self):
        """The service reports a taken name or an overlapping pool."""


class ServiceForm(forms.ModelForm):
    class Meta:
        model = Service
        fields = ["name", "protocol", "ports", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 2})}

    def validate_unique(self):
        """The service reports a taken name."""


class GroupAddressForm(forms.Form):
    """The explicit addresses of a group, one network per line (or comma-separated)."""

    cidrs = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        label="Addresses",
        help_text="One network per line, e.g. 10.0.0.5/32",
    )
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def clean_cidrs(self):
        items = self.cleaned_data["cidrs"].replace(",", "\n").split()
        return [strict_network(item) for item in items]


class GroupCreateForm(GroupAddressForm):
    """A new group of explicit addresses (a partner network, a CIDR group) in one tenant."""

    name = forms.CharField(max_length=40, validators=[ir_name], help_text="a-z, 0-9 and _ (e.g. partner_lab)")
    field_order = ["name", "cidrs", "description"]


class GroupChoices(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj):
        return str(obj)


class RuleForm(forms.ModelForm):
    """A firewall rule of one policy; groups offered are the policy tenant's and the site's."""

    sources = GroupChoices(queryset=Group.objects.none(), required=False, help_text="None selected: ANY")
    destinations = GroupChoices(queryset=Group.objects.none(), required=False, help_text="None selected: ANY")
    services = forms.ModelMultipleChoiceField(
        queryset=Service.objects.all(), required=False, help_text="None selected: ANY"
    )

    class Meta:
        model = FirewallRule
        fields = [
            "name",
            "sequence",
            "sources",
            "destinations",
            "services",
            "action",
            "direction",
            "logged",
            "enabled",
            "description",
        ]
        widgets = {"description": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args, user=None, policy=None, **kwargs):
        super().__init__(*args, **kwargs)
        groups = Group.objects.select_related("tenant").filter(Q(tenant__isnull=True) | Q(tenant=policy.tenant_id))
        if not is_site_admin(user) and self._allows():
            # Owners' allow rules may only name their own groups (policy.check_rule_groups refuses the rest).
            groups = groups.filter(tenant=policy.tenant_id)
        message = "Unknown group: choose one of this tenant's groups (site groups: drop and reject rules only)."
        for name in ("sources", "destinations"):
            self.fields[name].queryset = groups
            self.fields[name].error_messages["invalid_choice"] = message
            self.fields[name].widget.attrs["size"] = 6
        self.fields["services"].widget.attrs["size"] = 6
        self.policy = policy

    def _allows(self) -> bool:
        """Whether the rule (as posted, else as saved) allows traffic; new rules default to allow."""
        action = self.data.get("action") if self.is_bound else self.initial.get("action")
        return (action or self.instance.action or Action.ALLOW) == Action.ALLOW

    def service_data(self) -> dict:
        return {"policy": self.policy, **self.cleaned_data}

    def validate_unique(self):
        """The service names the rule that already has this sequence number."""


class ServiceRequestForm(forms.Form):
    """A PI's request for a new service: what it is, on which tenant's behalf, and why."""

    tenant = forms.ModelChoiceField(queryset=None, empty_label=None, help_text="The tenant that needs it")
    name = forms.CharField(max_length=40, validators=[ir_name], help_text="a-z, 0-9 and _ (e.g. jupyter)")
    protocol = forms.ChoiceField(choices=Protocol.choices)
    ports = forms.CharField(max_length=200, required=False, help_text="e.g. 8888-8899")
    justification = forms.CharField(max_length=2000, widget=forms.Textarea(attrs={"rows": 3}),
                                    help_text="What it is for; the site admins decide")  # fmt: skip

    def __init__(self, *args, tenants=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tenant"].queryset = tenants
