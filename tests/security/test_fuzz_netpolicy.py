"""Hostile bodies on every netpolicy write: never a 500, and every accepted write leaves a site that compiles."""

import json
import os

import pytest
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from netpolicy.models import FirewallPolicy, FirewallRule, Group, Pool, Segment, Service
from tests.netpolicy.test_netpolicy_db_segments import make_pools
from tests.security import routes
from tests.security.framework import assert_site_compiles

pytestmark = pytest.mark.django_db

NASTY_TEXT = [
    "",
    "0",
    "-1",
    "2147483648",
    "fe80::1%lo/128",
    "10.0.0.0/8\n",
    "2001:db8::%a b\nzz/128",
    "x" * 300,
    "any",
    "tcp",
    "icmp",
    "allow",
    "in-out",
    "application",
    "emergency",
    "vlan",
    "overlay",
    "ipv6",
    "10.64.0.0/24",
    "fd00::/64",
    "10.64.0.1",
    "22,6817-6819",
    "65536",
    "a\u0000b",
    "../..",
    "null",
]
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.integers(min_value=-3, max_value=5000), st.sampled_from(NASTY_TEXT), st.text(max_size=20),
)  # fmt: skip
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3), st.dictionaries(st.text(max_size=5), SCALARS, max_size=2))
NETPOLICY = {"pool", "segment", "service", "group", "firewallpolicy", "firewallrule", "what-if"}


def _routes():
    fields = routes.writable_fields()
    for name, method in sorted(routes.writable_api_routes()):
        if name.rsplit("-", 1)[0] in NETPOLICY and method != "delete":
            yield name, method, sorted(f for route, f in fields if route == name)


class Site:
    """Objects whose pks the fuzzer may use (it also uses random integers)."""

    def __init__(self, world):
        make_pools(world.admin)
        from netpolicy import segments

        self.segment = segments.create_segment(world.tenant_a, world.owner_a, {"name": "s", "kind": "vlan"})
        models = {"policy": FirewallPolicy, "group": Group, "service": Service, "rule": FirewallRule, "pool": Pool,
                  "segment": Segment}  # fmt: skip
        self.pks = {kind: list(model.objects.values_list("pk", flat=True)) for kind, model in models.items()}
        self.pks["tenant"] = [world.tenant_a.pk, world.tenant_b.pk]

    def targets(self, name: str) -> list[int]:
        kind = {"firewallpolicy": "policy", "firewallrule": "rule"}.get(name.split("-")[0], name.split("-")[0])
        return self.pks.get(kind, [0])


@pytest.mark.parametrize("route,method,fields", list(_routes()), ids=lambda v: v if isinstance(v, str) else None)
@pytest.mark.parametrize("role", ["admin", "owner_a"])
def test_no_hostile_body_gets_a_500_or_poisons_the_site(world, route, method, fields, role):
    site = Site(world)
    pk_values = st.sampled_from([pk for pks in site.pks.values() for pk in pks])
    body = st.fixed_dictionaries({}, optional={f: st.one_of(VALUES, pk_values, st.lists(pk_values, max_size=3))
                                               for f in fields})  # fmt: skip
    client = APIClient()
    client.force_login(getattr(world, role))

    @settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "25")), deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])  # fmt: skip
    @given(data=body, target=st.sampled_from(site.targets(route)))
    def probe(data, target):
        url = reverse(route, kwargs={} if route.endswith("-list") else {"pk": target})
        with transaction.atomic():
            response = client.generic(method.upper(), url, json.dumps(data), content_type="application/json")
            assert response.status_code < 500, (method, url, data, response.content[:500])
            if response.status_code < 300:
                assert_site_compiles()
            transaction.set_rollback(True)

    probe()
