"""Every grammar that guards a string bound for a kernel, nft, vSphere or a shell matches the whole string.

`^...$` with `re.match` (and a RegexValidator built from it) also accepts a trailing newline, because `$`
matches just before one; a newline is a new command in `ip -batch` and a new statement in nft.
"""

import re

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from audit.middleware import _VALID_ID
from netpolicy import site
from netpolicy.compiler.model import IFNAME_RE, NAME_RE, PolicyError, check_name

LINE_BREAKS = ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x85", "\u2028", "\u2029"]


def regex_validated_fields():
    """(model label, field name, validator, a value it accepts) for every RegexValidator on a model field."""
    samples = {"0000:3b:00.0", "abc", "a-1", "https://nsx.example.org", "/infra/tier-0s/t0", "0x0002c90300a1b2c3"}
    found = []
    for model in apps.get_models():
        for field in model._meta.get_fields():
            for validator in getattr(field, "validators", ()):
                if isinstance(validator, RegexValidator) and not validator.inverse_match:
                    valid = next((s for s in sorted(samples) if validator.regex.search(s)), None)
                    found.append((f"{model._meta.label}.{field.name}", validator, valid))
    return found


FIELDS = regex_validated_fields()


def test_the_model_grammars_are_found():
    names = {name for name, _, _ in FIELDS}
    assert {"tenants.Tenant.slug", "netpolicy.Service.name", "vsphere.PhysicalFunction.pci_id"} <= names


@pytest.mark.parametrize("name,validator,valid", FIELDS, ids=[f[0] for f in FIELDS])
@pytest.mark.parametrize("brk", LINE_BREAKS, ids=[repr(b) for b in LINE_BREAKS])
def test_no_model_field_grammar_accepts_a_line_break_after_a_valid_value(name, validator, valid, brk):
    assert valid is not None, f"{name}: no sample value passes {validator.regex.pattern}"
    validator(valid)
    with pytest.raises(ValidationError):
        validator(valid + brk)


@pytest.mark.parametrize("name,validator,valid", FIELDS, ids=[f[0] for f in FIELDS])
def test_no_string_a_model_field_grammar_accepts_holds_a_line_break_or_whitespace(name, validator, valid):
    @settings(max_examples=60, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])  # fmt: skip
    @given(text=st.from_regex(validator.regex))  # generates `$`'s trailing newline where the pattern allows it
    def accepted_has_no_break(text):
        try:
            validator(text)
        except ValidationError:
            return
        assert not any(c.isspace() for c in text), (name, text)

    accepted_has_no_break()


@given(text=st.from_regex(NAME_RE) | st.text(max_size=45))
@example("allow_ssh\n")
@settings(deadline=None, derandomize=True, database=None)
def test_policy_names_that_compile_hold_no_line_break(text):
    try:
        check_name("service", text)
    except PolicyError:
        return
    assert re.fullmatch(r"[a-z0-9_]{1,40}", text)


@pytest.mark.parametrize("pattern,valid", [(NAME_RE, "allow_ssh"), (IFNAME_RE, "eth0")], ids=["name", "ifname"])
def test_the_anchored_grammars_refuse_a_trailing_newline_even_with_match(pattern, valid):
    assert pattern.match(valid)
    assert pattern.match(valid + "\n") is None and pattern.search(valid + "\n") is None


@pytest.mark.parametrize("pattern,valid", [(site.DOMAIN_RE, "hpc.example.org"), (_VALID_ID, "req-12345")],
                         ids=["domain", "request-id"])  # fmt: skip
def test_the_whole_string_grammars_refuse_a_trailing_newline(pattern, valid):
    assert pattern.fullmatch(valid) and not pattern.fullmatch(valid + "\n")


def test_the_site_settings_refuse_a_domain_with_a_newline(db, make_user):
    from core.errors import InvalidRequest

    admin = make_user("grammar-admin", staff=True)
    with pytest.raises(InvalidRequest):
        site.update_settings(admin, {"dns_domain": "hpc.example.org\nsearch evil.example"})
