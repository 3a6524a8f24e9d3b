"""Forms of the catalog pages: an item's rules as a table of fields, and a request within an item's bounds."""

from django import forms
from django.utils import timezone

from catalog import fields as grammar
from catalog.choices import Visibility
from core.widgets import FastSelect, FastSelectMultiple, OfferedSelect, by_slug_when_long, unavailable_options
from tenants.access import visible_tenants
from tenants.models import Tenant, VirtualCluster

LABELS = {
    "workload_class": "Workload class", "worker_count": "Workers", "vcpus_per_node": "vCPUs per node",
    "memory_gb_per_node": "Memory per node (GB)", "login_node": "Login node", "interconnect": "Interconnect",
    "network_mode": "Network", "data_path": "Data path", "nic_type": "Network adapter", "gpu_mode": "GPUs",
    "gpus_per_worker": "GPUs per worker", "vgpu_profile": "vGPU profile",
}  # fmt: skip


def choices_of(name: str, profiles: list[str]) -> list[tuple[str, str]]:
    """The values a request field takes (vGPU profiles: the site's, plus none)."""
    if name in grammar.CHOICE_FIELDS:
        return list(grammar.CHOICE_FIELDS[name].choices)
    return [("", "—")] + [(p, p) for p in profiles]


def value_field(name: str, profiles: list[str], **kwargs) -> forms.Field:
    """A form field for one request field's value."""
    label = kwargs.pop("label", LABELS[name])
    if name in grammar.INT_FIELDS:
        low, high = grammar.bounds(name)
        return forms.IntegerField(min_value=low, max_value=high, label=label, **kwargs)
    if name in grammar.BOOL_FIELDS:
        return forms.BooleanField(required=False, label=label, **kwargs)
    return forms.ChoiceField(choices=choices_of(name, profiles), required=name != "vgpu_profile", label=label, **kwargs)


class ItemForm(forms.Form):
    """A catalog item: its description, who sees it, and per request field a preset and what may change."""

    slug = forms.SlugField(max_length=63)
    name = forms.CharField(max_length=100)
    summary = forms.CharField(max_length=200, required=False)
    description = forms.CharField(max_length=8000, required=False, widget=forms.Textarea(attrs={"rows": 5}),
                                  help_text="What it is for and its trade-offs, with the site's figures")  # fmt: skip
    visibility = forms.ChoiceField(choices=Visibility.choices, widget=forms.RadioSelect, initial=Visibility.ALL)
    tenants = forms.ModelMultipleChoiceField(
        queryset=Tenant.objects.order_by("slug"), required=False, widget=FastSelectMultiple(label_field="slug")
    )  # every tenant
    max_lease_days = forms.IntegerField(min_value=1, max_value=3650, required=False, label="Longest lease (days)")
    active = forms.BooleanField(required=False, initial=True, label="Requestable (untick to retire)")

    def __init__(self, *args, profiles=(), item=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.profiles = list(profiles)
        for name in grammar.FIELDS:
            self.fields[f"{name}__value"] = value_field(name, self.profiles, initial=grammar.default(name))
            self.fields[f"{name}__editable"] = forms.BooleanField(required=False, label="may change")
            if name in grammar.INT_FIELDS:
                self.fields[f"{name}__min"] = forms.IntegerField(required=False, label="from")
                self.fields[f"{name}__max"] = forms.IntegerField(required=False, label="to")
            elif name not in grammar.BOOL_FIELDS:
                self.fields[f"{name}__choices"] = forms.MultipleChoiceField(
                    choices=choices_of(name, self.profiles)[name == "vgpu_profile" :], required=False,
                    widget=forms.CheckboxSelectMultiple, label="allowed",
                )  # fmt: skip
        if item is not None:
            self.fields["slug"].disabled = True
        by_slug_when_long(self.fields["tenants"])  # the item may be limited to any of the site's tenants

    def rule_rows(self):
        """(field, label, [bound fields]) for the rules table."""
        for name in grammar.FIELDS:
            parts = [self[key] for key in (f"{name}__value", f"{name}__editable", f"{name}__min", f"{name}__max",
                                           f"{name}__choices") if key in self.fields]  # fmt: skip
            yield name, LABELS[name], parts

    def service_data(self) -> dict:
        """The service's fields: rules built from the table (editable fields carry their bounds)."""
        data = {k: self.cleaned_data[k] for k in ("slug", "name", "summary", "description", "visibility", "active")}
        data["tenants"] = list(self.cleaned_data["tenants"])
        data["max_lease_days"] = self.cleaned_data["max_lease_days"]
        data["rules"] = {name: self._rule(name) for name in grammar.FIELDS}
        return data

    def _rule(self, name: str) -> dict:
        get = self.cleaned_data.get
        rule = {"value": get(f"{name}__value"), "editable": bool(get(f"{name}__editable"))}
        if not rule["editable"]:
            return rule
        for key in ("min", "max"):
            if get(f"{name}__{key}") is not None:
                rule[key] = get(f"{name}__{key}")
        if get(f"{name}__choices"):
            rule["choices"] = list(get(f"{name}__choices"))
        return rule


def item_initial(item) -> dict:
    """The form's values for an existing item (its current version)."""
    version = item.current
    initial = {
        "slug": item.slug, "name": version.name, "summary": version.summary, "description": version.description,
        "visibility": item.visibility, "tenants": list(item.tenants.all()), "max_lease_days": version.max_lease_days,
        "active": item.active,
    }  # fmt: skip
    for name, rule in version.rules.items():
        for key, value in rule.items():
            initial[f"{name}__{key}"] = value
    return initial


class RequestForm(forms.Form):
    """A cluster request from an item: the researcher's own fields and those the item lets them change."""

    tenant = forms.ModelChoiceField(queryset=Tenant.objects.none(), widget=FastSelect(label_field="slug"))
    name = forms.CharField(max_length=63, validators=VirtualCluster._meta.get_field("name").validators)
    lease_end = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    justification = forms.CharField(max_length=4000, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, user=None, rules=None, site_offers=(), **kwargs):
        super().__init__(*args, **kwargs)
        tenants = visible_tenants(user).order_by("slug")
        self.fields["tenant"].queryset = tenants
        if len(tenants[:2]) == 1:  # a lone tenant is preselected, as on the cluster form
            self.fields["tenant"].initial = tenants[0].pk
        by_slug_when_long(self.fields["tenant"])
        self.editable = [name for name in grammar.FIELDS if (rules or {}).get(name, {}).get("editable")]
        for name in self.editable:
            self.fields[name] = self._bounded(name, rules[name], site_offers)

    @staticmethod
    def _bounded(name: str, rule: dict, site_offers) -> forms.Field:
        if name in grammar.INT_FIELDS:
            field = forms.IntegerField(min_value=rule["min"], max_value=rule["max"], initial=rule["value"],
                                       label=f"{LABELS[name]} ({rule['min']}-{rule['max']})")  # fmt: skip
        elif name in grammar.BOOL_FIELDS:
            field = forms.BooleanField(required=False, initial=rule["value"], label=LABELS[name])
        else:
            unavailable = unavailable_options(site_offers, name)
            choices = [(c, c) for c in rule["choices"]]
            widget = OfferedSelect(unavailable=unavailable)
            field = forms.ChoiceField(choices=choices, initial=rule["value"], label=LABELS[name], widget=widget)
        return field

    def clean_lease_end(self):
        lease_end = self.cleaned_data["lease_end"]
        if lease_end <= timezone.localdate():
            raise forms.ValidationError("The lease end must be a date in the future.")
        return lease_end

    def service_data(self) -> dict:
        data = {k: self.cleaned_data[k] for k in ("name", "lease_end", "justification")}
        data["values"] = {name: self.cleaned_data[name] for name in self.editable}
        return data


def preset_rows(rules: dict) -> list[dict]:
    """An item's presets in words: the field's label, its preset and what a researcher may change it to."""
    rows = []
    for name, rule in rules.items():
        rows.append({"name": name, "label": LABELS.get(name, name), "value": _shown(name, rule.get("value")),
                     "choices": [_shown(name, c) for c in rule.get("choices", [])]} | {
                     k: rule.get(k) for k in ("editable", "min", "max")})  # fmt: skip
    return rows


def _shown(name: str, value) -> str:
    """A preset as a person reads it: yes/no for switches, a choice's label, "none" for an empty profile."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if name in grammar.CHOICE_FIELDS and value in grammar.CHOICE_FIELDS[name].values:
        return str(grammar.CHOICE_FIELDS[name](value).label)
    return "none" if value in ("", None) else str(value)
