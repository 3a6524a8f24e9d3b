"""any_of: thousands of ids as one array parameter, matching exactly what __in matches."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.lookups import any_of
from tenants import services
from tenants.models import Membership, Tenant

pytestmark = pytest.mark.django_db


def test_it_matches_what_in_matches_and_nothing_for_no_ids(world):
    ids = [world.tenant_a.pk, 10**12]
    assert list(Tenant.objects.filter(any_of("pk", ids))) == list(Tenant.objects.filter(pk__in=ids))
    assert not Tenant.objects.filter(any_of("pk", [])).exists()
    across = Membership.objects.filter(any_of("tenant__pk", [world.tenant_b.pk]))
    assert sorted(across.values_list("user__username", flat=True)) == ["member-b", "owner-b"]


def test_its_sql_is_the_same_text_for_three_ids_or_fifty_thousand(world):
    services.create_tenant("extra", "Extra", owner=world.owner_a)
    texts = []
    for ids in ([1, 2, 3], range(50_000)):
        with CaptureQueriesContext(connection) as queries:
            found = Tenant.objects.filter(any_of("pk", ids)).count()
        texts.append(queries.captured_queries[0]["sql"].split(" = ANY")[0])
        assert found == Tenant.objects.filter(pk__in=list(ids)).count()
    assert texts[0] == texts[1]


def test_anything_but_whole_numbers_is_refused_before_any_sql():
    with pytest.raises(ValueError):
        any_of("pk", ["1; DROP TABLE tenants_tenant"])
