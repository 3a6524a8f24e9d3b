"""Every route against every role: another tenant's object is a 404, anonymous users are refused."""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tenants import services
from tests.access import EXEMPT, EXEMPT_PREFIXES, MATRIX, ROLES
from tests.conftest import service_data
from users.services import create_token

pytestmark = pytest.mark.django_db


def route_names(resolver=None, namespace="") -> set[str]:
    """Every named route of the project, with its namespace."""
    names = set()
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            ns = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            names |= route_names(pattern, ns)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(namespace + pattern.name)
    return names


def routed(name: str) -> bool:
    return name in EXEMPT or name.startswith(EXEMPT_PREFIXES) or ".json" in name


class Objects:
    """Tenant A's objects that each route is exercised against."""

    def __init__(self, world):
        self.world = world
        self.tenant_a = world.tenant_a
        self.membership_a = world.tenant_a.memberships.get(user=world.member_a)
        self.quota_a = world.tenant_a.quota
        self.cluster_a = services.create_cluster(world.tenant_a, world.member_a, service_data())
        from audit.models import AuditEvent

        self.event_a = AuditEvent.objects.filter(tenant_id=world.tenant_a.pk).first()
        self.token_a, _ = create_token(world.owner_a, "ci")
        from notices.models import Notice

        self.notice_a = Notice.objects.create(user=world.owner_a, kind="cluster", subject="tenant-a/mpi-1 submitted")
        from agents import services as agent_services

        self.pool = agent_services.create_pool("pool-1")
        self.pool_subnet = agent_services.add_subnet(self.pool, "10.1.0.0/24", 4790)
        self.join_token, raw = agent_services.create_join_token(self.pool)
        self.node, _ = agent_services.join(raw, "node-1", {})
        from tests.netpolicy.access_entries import add_netpolicy_objects

        add_netpolicy_objects(self)
        from tests.vsphere.access_objects import add_vsphere_objects

        add_vsphere_objects(self)
        from tests.identity.access_entries import add_identity_objects

        add_identity_objects(self)
        from tests.catalog.access_entries import add_catalog_objects

        add_catalog_objects(self)
        from tests.nsx.access_entries import add_nsx_objects

        add_nsx_objects(self)
        from tests.webhooks.access_entries import add_webhook_objects

        add_webhook_objects(self)
        from tests.fabrics.access_entries import add_fabric_objects

        add_fabric_objects(self)


@pytest.fixture
def objects(world):
    return Objects(world)


def url_for(name: str, obj) -> str:
    """Reverse a route, filling its arguments from the object."""
    kwargs = {}
    if obj is not None and name not in ("frontend:home",) and not name.endswith(("-list", "-export")) \
            and name not in ("frontend:audit", "frontend:cluster-list"):  # fmt: skip
        kwargs["pk"] = obj.pk
    if name == "frontend:cluster-action":
        kwargs["verb"] = "approve"
    return reverse(name, kwargs=kwargs)


def client_for(role, world, client):
    if role != "anonymous":
        client.force_login(getattr(world, role))
    return client


def expected(kind: str, role: str, is_api: bool) -> set[int]:
    """The acceptable statuses for a role on a kind of route."""
    if role == "anonymous":
        return {401, 403} if is_api else {302}
    table = {
        "list": {200},
        "detail": {404} if role == "owner_b" else {200},
        "own": {200, 201, 302} if role == "owner_a" else {404},
        "owner": {200, 201, 202, 302} if role in ("owner_a", "admin") else {404},
        "admin": {200, 201, 302} if role == "admin" else ({403, 404} if is_api else {404}),
        "action": {404} if role == "owner_b" else {200, 201, 302, 400, 403, 409},
    }
    return table[kind]


def test_every_route_is_in_the_access_matrix():
    missing = sorted(n for n in route_names() if n not in MATRIX and not routed(n))
    assert not missing, f"routes without an access-matrix entry: {missing}"


@pytest.mark.parametrize("role", ROLES)
def test_each_role_gets_what_the_matrix_says(role, world, objects, client):
    client = client_for(role, world, client)
    failures = []
    for name, (method, kind, attr) in MATRIX.items():
        obj = getattr(objects, attr) if attr else None
        url = url_for(name, obj)
        is_api = url.startswith("/api/")
        response = getattr(client, method)(url, content_type="application/json") if is_api \
            else getattr(client, method)(url)  # fmt: skip
        if response.status_code not in expected(kind, role, is_api):
            failures.append(f"{method.upper()} {url} ({name}) as {role}: {response.status_code}")
        elif kind == "list" and role == "owner_b" and obj is not None:
            raw = b"".join(response.streaming_content) if response.streaming else response.content
            body = raw.decode()
            if is_api and f'"id":{obj.pk},' in body.replace(" ", "") and name != "auditevent-export":
                failures.append(f"{url} as {role} lists tenant A's object {obj.pk}")
    assert not failures, "\n".join(failures)


def test_tenant_b_never_sees_tenant_a_in_lists(world, objects, api):
    client = api(world.owner_b)
    for path in ("/api/v1/clusters/", "/api/v1/memberships/", "/api/v1/quotas/", "/api/v1/tenants/"):
        results = client.get(path).json()["results"]
        assert all(r.get("tenant", r.get("id")) != world.tenant_a.pk for r in results), path
    events = client.get("/api/v1/audit-events/").json()["results"]
    assert all(e["tenant"] != world.tenant_a.pk for e in events)
    export = client.get("/api/v1/audit-events/export/?as=json")
    assert b'"tenant": %d' % world.tenant_a.pk not in b"".join(export.streaming_content)
