"""The fast selects write the same HTML as Django's, in one query without a model instance per option."""

import pytest
from django import forms
from django.db import connection
from django.test.html import parse_html
from django.test.utils import CaptureQueriesContext

from core.widgets import FastSelect, FastSelectMultiple
from tenants.models import Tenant

pytestmark = pytest.mark.django_db


def _tenants(count: int) -> list[Tenant]:
    return Tenant.objects.bulk_create(Tenant(slug=f"lab-{n:03d}", name=f"Lab <{n}>") for n in range(count))


def _forms(widget_class, field_class, label_field):
    class Slow(forms.Form):
        tenant = field_class(queryset=Tenant.objects.order_by("slug"), widget=widget_class.__mro__[2])

    class Fast(forms.Form):
        tenant = field_class(queryset=Tenant.objects.order_by("slug"), widget=widget_class(label_field=label_field))

    return Slow, Fast


@pytest.mark.parametrize("widget_class, field_class, initial", [
    (FastSelect, forms.ModelChoiceField, lambda ts: ts[3].pk),
    (FastSelectMultiple, forms.ModelMultipleChoiceField, lambda ts: [ts[1].pk, ts[4].pk]),
])  # fmt: skip
def test_a_fast_tenant_select_renders_what_djangos_select_renders(widget_class, field_class, initial):
    tenants = _tenants(6)
    slow, fast = _forms(widget_class, field_class, "slug")
    value = initial(tenants)
    expected = str(slow(initial={"tenant": value})["tenant"])
    assert parse_html(str(fast(initial={"tenant": value})["tenant"])) == parse_html(expected)
    assert "selected" in expected


def test_a_fast_tenant_select_reads_its_options_in_one_query_at_any_size():
    _tenants(300)
    _, fast = _forms(FastSelect, forms.ModelChoiceField, "slug")
    with CaptureQueriesContext(connection) as queries:
        html = str(fast()["tenant"])
    assert len(queries.captured_queries) == 1
    assert html.count("<option") == 301  # the empty choice and every tenant
