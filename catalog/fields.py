"""The grammar of a catalog item's rules: which request fields it presets, bounds and lets researchers change.

The rules map a cluster request field to {"value": preset, "editable": bool, "min": n, "max": n}
(whole numbers) or {"value": preset, "editable": bool, "choices": [...]} (choices and profiles).
Everything else is refused with the field's name: a spec is data an admin typed, checked strictly.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator

from core.errors import InvalidRequest
from tenants.choices import DataPath, GpuMode, Interconnect, NetworkMode, NicType, WorkloadClass
from tenants.models import VirtualCluster, vgpu_profile_name

CHOICE_FIELDS = {
    "workload_class": WorkloadClass,
    "interconnect": Interconnect,
    "network_mode": NetworkMode,
    "data_path": DataPath,
    "nic_type": NicType,
    "gpu_mode": GpuMode,
}
INT_FIELDS = ("worker_count", "vcpus_per_node", "memory_gb_per_node", "gpus_per_worker")
BOOL_FIELDS = ("login_node",)
TEXT_FIELDS = ("vgpu_profile",)  # a name from the site's inventory; choices list the offered ones
FIELDS = ("workload_class", *INT_FIELDS[:3], "login_node", "interconnect", "network_mode", "data_path", "nic_type",
          "gpu_mode", "gpus_per_worker", "vgpu_profile")  # fmt: skip
KEYS = frozenset({"value", "editable", "min", "max", "choices"})
MAX_CHOICES = 32


def bounds(name: str) -> tuple[int, int]:
    """The request field's own limits (the model's validators)."""
    field = VirtualCluster._meta.get_field(name)
    low = max((v.limit_value for v in field.validators if isinstance(v, MinValueValidator)), default=0)
    high = min((v.limit_value for v in field.validators if isinstance(v, MaxValueValidator)), default=2**31 - 1)
    return low, high


def default(name: str):
    """The request field's default when an item leaves it out."""
    return VirtualCluster._meta.get_field(name).get_default()


def required(name: str) -> bool:
    """Whether an item must preset the field: the request has no valid value for it otherwise."""
    field = VirtualCluster._meta.get_field(name)
    return not field.has_default() and not field.blank


def rules_schema() -> dict:
    """The grammar as JSON Schema, for the API's schema; what it cannot state (a preset inside its own
    bounds and choices, presets that make a valid request together) normalize() alone checks."""
    return {
        "type": "object", "additionalProperties": False, "properties": {name: _rule_schema(name) for name in FIELDS},
        "required": [name for name in FIELDS if required(name)],
    }  # fmt: skip


def values_schema() -> dict:
    """A request's own values as JSON Schema: known fields only, each of its type (the item bounds them)."""
    return {"type": "object", "additionalProperties": False, "properties": {n: _value_schema(n) for n in FIELDS}}


def _value_schema(name: str) -> dict:
    if name in INT_FIELDS:
        low, high = bounds(name)
        return {"type": "integer", "minimum": low, "maximum": high}
    if name in BOOL_FIELDS:
        return {"type": "boolean"}
    if name in CHOICE_FIELDS:
        return {"type": "string", "enum": list(CHOICE_FIELDS[name].values)}
    return {"type": "string", "pattern": r"^$|^[A-Za-z0-9][A-Za-z0-9_.:+-]{0,63}$"}  # tenants.models.vgpu_profile_name


def _rule_schema(name: str) -> dict:
    value = _value_schema(name)
    if name in INT_FIELDS:
        bounded = {"min": value, "max": value}
    elif name in BOOL_FIELDS:
        bounded = {}
    else:
        bounded = {"choices": {"type": "array", "items": value, "minItems": 1, "maxItems": MAX_CHOICES,
                               "uniqueItems": True}}  # fmt: skip
    fixed = {"value": value, "editable": {"type": "boolean", "enum": [False]}}
    editable = {"value": value, "editable": {"type": "boolean", "enum": [True]}, **bounded}
    return {
        "type": "object",
        "oneOf": [
            {"properties": fixed, "required": ["value"], "additionalProperties": False},
            {"properties": editable, "required": ["value", "editable"], "additionalProperties": False},
        ],
    }


def normalize(spec) -> dict:
    """Check a whole spec and return it with every key spelled out; InvalidRequest names the first problem."""
    if not isinstance(spec, dict):
        raise InvalidRequest("Give the fields as an object of field name to settings.", "rules")
    unknown = sorted(set(spec) - set(FIELDS), key=str)
    if unknown:
        raise InvalidRequest(
            f"Unknown request fields: {', '.join(map(str, unknown))} (known: {', '.join(FIELDS)}).", "rules"
        )
    missing = [name for name in FIELDS if name not in spec and required(name)]
    if missing:
        missing = ", ".join(missing)
        raise InvalidRequest(f"An item must preset {missing} (it may let researchers change them).", "rules")
    return {name: _field(name, spec[name]) for name in FIELDS if name in spec}


def _field(name: str, rule) -> dict:
    if not isinstance(rule, dict) or "value" not in rule or not set(rule) <= KEYS:
        raise InvalidRequest(f"{name}: give {{'value': …}} with optional editable, min, max, choices.", "rules")
    editable = rule.get("editable", False)
    if not isinstance(editable, bool):
        raise InvalidRequest(f"{name}: editable is true or false.", "rules")
    if not editable and ({"min", "max", "choices"} & set(rule)):
        raise InvalidRequest(
            f"{name}: min, max and choices bound what researchers may change; make it editable.", "rules"
        )
    if name in INT_FIELDS:
        return _int_field(name, rule, editable)
    if name in BOOL_FIELDS:
        if not isinstance(rule["value"], bool) or {"min", "max", "choices"} & set(rule):
            raise InvalidRequest(f"{name}: the value is true or false, nothing more.", "rules")
        return {"value": rule["value"], "editable": editable}
    return _choice_field(name, rule, editable)


def _int_field(name: str, rule: dict, editable: bool) -> dict:
    low, high = bounds(name)
    if "choices" in rule:
        raise InvalidRequest(f"{name}: whole numbers take min and max, not choices.", "rules")
    out = {"value": rule["value"], "editable": editable}
    if editable:
        out |= {"min": rule.get("min", low), "max": rule.get("max", high)}
    for key, value in out.items():
        if key != "editable" and (not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high):
            raise InvalidRequest(f"{name}: {key} must be a whole number from {low} to {high}.", "rules")
    if editable and not out["min"] <= out["value"] <= out["max"]:
        raise InvalidRequest(f"{name}: the preset {out['value']} is outside {out['min']}..{out['max']}.", "rules")
    return out


def _choice_field(name: str, rule: dict, editable: bool) -> dict:
    if {"min", "max"} & set(rule):
        raise InvalidRequest(f"{name}: a choice takes choices, not min and max.", "rules")
    valid = _valid_choice(name)
    value = rule["value"]
    if not valid(value):
        raise InvalidRequest(f"{name}: {value!r} is not a valid value.", "rules")
    out = {"value": value, "editable": editable}
    if editable:
        choices = rule.get("choices", list(CHOICE_FIELDS[name].values) if name in CHOICE_FIELDS else [value])
        if (
            not isinstance(choices, list)
            or not 1 <= len(choices) <= MAX_CHOICES
            or len(set(map(str, choices))) != len(choices)
        ):
            raise InvalidRequest(f"{name}: choices is a list of 1 to {MAX_CHOICES} different values.", "rules")
        bad = [c for c in choices if not valid(c)]
        if bad or value not in choices:
            raise InvalidRequest(f"{name}: choices must be valid values and include the preset {value!r}.", "rules")
        out["choices"] = choices
    return out


def _valid_choice(name: str):
    if name in CHOICE_FIELDS:
        return lambda v: isinstance(v, str) and v in CHOICE_FIELDS[name].values
    return lambda v: isinstance(v, str) and (v == "" or _matches(v))


def _matches(value: str) -> bool:
    try:
        vgpu_profile_name(value)
    except Exception:  # noqa: BLE001 - a ValidationError: not a profile name
        return False
    return True


def apply(spec: dict, given: dict) -> dict:
    """The request's values: researchers' choices where the item lets them, its presets and defaults elsewhere."""
    unknown = sorted(set(given) - set(FIELDS), key=str)
    if unknown:
        raise InvalidRequest(f"Unknown request fields: {', '.join(map(str, unknown))}.", "values")
    values = {}
    for name in FIELDS:
        rule = spec.get(name)
        preset = rule["value"] if rule else default(name)
        if name not in given or given[name] == preset:
            values[name] = preset
            continue
        if not rule or not rule["editable"]:
            raise InvalidRequest(f"{name} is fixed by this catalog item ({preset!r}).", name)
        values[name] = _within(name, rule, given[name])
    return values


def _within(name: str, rule: dict, value):
    if name in INT_FIELDS:
        if not isinstance(value, int) or isinstance(value, bool) or not rule["min"] <= value <= rule["max"]:
            raise InvalidRequest(f"{name}: this item allows {rule['min']} to {rule['max']}.", name)
        return value
    if name in BOOL_FIELDS:
        if not isinstance(value, bool):
            raise InvalidRequest(f"{name}: true or false.", name)
        return value
    if value not in rule["choices"]:
        raise InvalidRequest(f"{name}: this item allows {', '.join(map(str, rule['choices']))}.", name)
    return value
