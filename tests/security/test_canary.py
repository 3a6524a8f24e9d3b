"""The canary: markers planted in one tenant's objects never reach another tenant's members, on any channel.

A victim tenant gets markers in everything it owns (its slug and name, segment subnets, group addresses,
names and descriptions, a cluster's justification, a lease extension's, a service request's, a webhook's
URL, its errors in a node's report); then every role of another tenant reads every API route (from the
URL resolver: new routes are covered without a change here), every page reachable by links from the home
page, every export, and their e-mail, notices and webhook deliveries: no marker may appear. A site admin
reading the same routes sees every marker (the positive control: a channel that carries none proves nothing).
"""

import datetime
import json
import re
from collections import defaultdict
from urllib.parse import urljoin, urlsplit

import pytest
from django.core import mail
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.resolvers import RoutePattern

from audit.context import acting_as, system_actor
from tests.security.table import MODULES
from tests.security.world import AbuseWorld

ATTACKERS = ("owner_a", "member_a")
SUBNET, ADDRESS = "10.96.77.", "192.0.2.77"  # the victim's segment (10.96.77.0/24) and its group's host
# Case-sensitive, with a separator: a random CSRF token may hold "zQv", never "zqv-".
FORBIDDEN = re.compile(rf"zqv[-_]|Zqv Victim|{re.escape(SUBNET)}|{re.escape(ADDRESS)}")
# What the site admin must read somewhere (each planted channel once at least).
SEEN_BY_ADMIN = ("zqv-victim", "Zqv Victim", SUBNET, ADDRESS, "zqv-seg", "zqv_rule", "zqv_group",
                 "zqv-cluster", "zqv-justification", "zqv-lease-justification", "zqv-service-justification",
                 "zqv-hook.example.org", "zqv-node-tenant-error", "zqv-node-error", "zqv-description",
                 "zqv-group-notes", "zqv-rule-description", "zqv-owner")  # fmt: skip
PAGES_MAX, VARIANTS_PER_PATH, OWN_SAMPLES = 250, 2, 2
SKIPPED_PAGES = ("/logout", "/oidc/", "/admin/", "/api/", "/static/", "/login")
PAGED = {"tenants.Tenant", "tenants.VirtualCluster", "netpolicy.Segment", "netpolicy.Group", "netpolicy.FirewallRule",
         "webhooks.Webhook"}  # fmt: skip
LINK = re.compile(r'(?:href|hx-get|action)="([^"#]*)')


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker):
    """The abuse world, a victim tenant with markers everywhere, and tenant A's wide rule (issue 31.1)."""
    with django_db_blocker.unblock(), acting_as(system_actor("canary")), transaction.atomic():
        mail.outbox = []
        world = AbuseWorld(MODULES)
        _plant(world)
        _attackers_own(world)
        _report(world)
        from webhooks import dispatch

        dispatch.dispatch()
        yield world
        transaction.set_rollback(True)


def _plant(world) -> None:
    """The victim tenant and its objects, each carrying a marker."""
    from django.contrib.auth import get_user_model

    from netpolicy import segments, service_requests
    from netpolicy.models import FirewallPolicy, Group, Service
    from netpolicy.rules import save_rule
    from tenants import services
    from tests.conftest import service_data
    from webhooks import services as webhooks

    users = get_user_model().objects
    world.owner_v = users.create_user("zqv-owner", "zqv-owner@example.org", "pw")
    world.victim = v = services.create_tenant("zqv-victim", "Zqv Victim", "zqv-description", owner=world.owner_v)
    services.update_quota(v.quota, max_nodes=32, max_segments=8)
    world.segment_v = segments.create_segment(v, world.admin, {
        "name": "zqv-seg", "kind": "overlay", "subnet": f"{SUBNET}0/24", "node_pool": world.node_pool})  # fmt: skip
    group = Group.objects.create(tenant=v, name="zqv_group", cidrs=[f"{ADDRESS}/32"], description="zqv-group-notes")
    policy = FirewallPolicy.objects.get(tenant=v, name="isolation")
    save_rule(world.owner_v, {"policy": policy, "name": "zqv_rule", "sequence": 700, "sources": [group],
                              "destinations": [Group.objects.get(tenant=v, name="all")],
                              "services": [Service.objects.get(name="ssh")], "action": "allow", "direction": "in",
                              "description": "zqv-rule-description"})  # fmt: skip
    cluster = services.create_cluster(v, world.owner_v, service_data(name="zqv-cluster", worker_count=1,
                                      justification="zqv-justification"), submit=True)  # fmt: skip
    far = services.max_lease_end() + datetime.timedelta(days=30)
    services.change_lease(cluster, world.owner_v, far, "zqv-lease-justification")  # an extension to decide
    service_requests.request_service(world.owner_v, v, {"name": "zqv_svc", "protocol": "tcp", "ports": "7777"},
                                     "zqv-service-justification")  # fmt: skip
    webhooks.create_webhook(world.owner_v, v, {"name": "zqv-hook", "url": "https://zqv-hook.example.org/in",
                                               "events": ["cluster.state_changed", "firewall.changed"]})  # fmt: skip


def _attackers_own(world) -> None:
    """Tenant A's overlay segment on the same nodes, and the rule of issue 31.1: 10.0.0.0/8 allowed into A."""
    from netpolicy import segments
    from netpolicy.models import FirewallPolicy, Group, Service
    from netpolicy.rules import save_rule

    world.segment_a_overlay = segments.create_segment(world.tenant_a, world.admin, {
        "name": "a-overlay", "kind": "overlay", "node_pool": world.node_pool})  # fmt: skip
    wide = Group.objects.create(tenant=world.tenant_a, name="wide", cidrs=["10.0.0.0/8"])
    world.wide_rule = save_rule(world.owner_a, {
        "policy": FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation"), "name": "from_wide",
        "sequence": 600, "sources": [wide], "destinations": [Group.objects.get(tenant=world.tenant_a, name="all")],
        "services": [Service.objects.get(name="ssh")], "action": "allow", "direction": "in"})  # fmt: skip


def _report(world) -> None:
    """A node that realizes A's network reports the victim's network failing, and errors of its own."""
    from agents import refresh
    from agents import services as agents
    from agents.models import Node

    refresh.refresh([world.tenant_a.pk, world.victim.pk])
    for node in Node.objects.filter(pool=world.node_pool):
        agents.record_observed(node, {
            "generation": node.desired_generation, "node_errors": ["nft: zqv-node-error"],
            "tenants": {str(world.tenant_a.pk): {"status": "ready", "errors": []},
                        str(world.victim.pk): {"status": "failed", "errors": ["zqv-node-tenant-error"]}}})  # fmt: skip


# ---------------------------------------------------------------- reading everything


def _all_routes(resolver=None, prefix="", namespace=""):
    """(url name, route, pattern) of every named URL pattern."""
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            ns = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from _all_routes(pattern, prefix + str(pattern.pattern), ns)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield namespace + pattern.name, prefix + str(pattern.pattern), pattern


def _api_routes():
    """(url name, route, pattern) of every user-facing GET route under /api/v1/ (agents' own ones excepted)."""
    for name, route, pattern in _all_routes():
        actions = getattr(pattern.callback, "actions", None)
        gets = "get" in actions if actions else hasattr(getattr(pattern.callback, "cls", None), "get")
        if route.startswith("api/v1/") and gets and "agents/" not in route and ".json" not in route:
            yield name, route, pattern


def _model_of(pattern):
    view = getattr(pattern.callback, "cls", None)
    queryset = getattr(view, "queryset", None)
    return queryset.model if queryset is not None else None


def _read_api(client, world, planted) -> list[str]:
    """Every list route (and its exports), then each detail route for the victim's objects and a few of ours."""
    texts, seen = [], defaultdict(list)
    routes = list(_api_routes())
    for name, route, pattern in routes:
        if pattern.pattern.regex.groupindex:
            continue
        for query in ("", "?as=json") if "export" in name else ("",):
            response = client.get("/" + route.replace("^", "").replace("$", "") + query)
            body = b"".join(response.streaming_content) if response.streaming else response.content
            texts.append(body.decode(errors="replace"))
            if name.endswith("-list") and response.status_code == 200:
                seen[name[: -len("-list")]] = _ids(body)[:OWN_SAMPLES]
    for name, route, pattern in routes:
        if list(pattern.pattern.regex.groupindex) != ["pk"]:
            continue
        model = _model_of(pattern) or _model_from_route(route)
        candidates = set(planted.get(model, [])) | set(seen.get(name.rsplit("-", 1)[0], []))
        for pk in sorted(candidates):
            response = client.get(reverse(name, kwargs={"pk": pk}))
            texts.append(response.content.decode(errors="replace"))
    return texts


def _read_pages_of(client, planted) -> list[str]:
    """Every detail or edit page (one pk) asked for each of the victim's objects: links need not lead there."""
    pks = sorted({pk for model, model_pks in planted.items() if model._meta.label in PAGED for pk in model_pks})
    texts = []
    for name, route, pattern in _all_routes():
        if route.startswith(("api/", "admin/")) or not name.endswith(("-detail", "-edit")):
            continue
        if not isinstance(pattern.pattern, RoutePattern) or list(pattern.pattern.converters) != ["pk"]:
            continue
        texts += [client.get(reverse(name, kwargs={"pk": pk})).content.decode(errors="replace") for pk in pks]
    return texts


def _model_from_route(route: str):
    from tenants.models import VirtualCluster

    return VirtualCluster if route.startswith("api/v1/clusters/") else None


def _ids(body: bytes) -> list:
    try:
        data = json.loads(body)
    except ValueError:
        return []
    rows = data.get("results", []) if isinstance(data, dict) else data
    return [row["id"] for row in rows if isinstance(row, dict) and isinstance(row.get("id"), int)]


def _crawl(client) -> list[str]:
    """Pages reachable by links from the home page (same origin, GET only, bounded)."""
    queue, done, per_path, texts = ["/"], set(), defaultdict(int), []
    while queue and len(done) < PAGES_MAX:
        url = queue.pop(0)
        path = urlsplit(url).path
        if url in done or path.startswith(SKIPPED_PAGES) or per_path[path] >= VARIANTS_PER_PATH:
            continue
        done.add(url)
        per_path[path] += 1
        response = client.get(url)
        if response.streaming:
            texts.append(b"".join(response.streaming_content).decode(errors="replace"))
            continue
        text = response.content.decode(errors="replace")
        texts.append(text + response.get("Location", ""))
        for link in LINK.findall(text):
            target = urljoin(url, link.replace("&amp;", "&"))
            parts = urlsplit(target)
            if not parts.netloc or parts.netloc == "testserver":
                queue.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return texts


def _planted(world) -> dict:
    """The victim's objects by model: the detail routes are read for each of them."""
    from django.apps import apps

    out = defaultdict(list)
    for model in apps.get_models():
        field = next((f for f in model._meta.concrete_fields if f.name == "tenant" and f.is_relation), None)
        if field is not None:
            out[model] = list(model.objects.filter(tenant=world.victim).values_list("pk", flat=True)[:5])
    out[apps.get_model("tenants", "Tenant")] = [world.victim.pk]
    out[apps.get_model("agents", "Node")] = list(world.node_pool.nodes.values_list("pk", flat=True))
    out[apps.get_model("netpolicy", "Group")] = list(world.victim.address_groups.values_list("pk", flat=True)[:5])
    out[apps.get_model("netpolicy", "FirewallRule")] = list(
        apps.get_model("netpolicy", "FirewallRule")
        .objects.filter(policy__tenant=world.victim)
        .values_list("pk", flat=True)
    ) + [world.wide_rule.pk]
    return out


def _channels(world, user) -> list[str]:
    """The user's e-mail, notices and their tenants' webhook deliveries."""
    from notices.models import Notice
    from tenants.access import tenant_ids
    from webhooks.models import Delivery

    texts = [f"{m.subject}\n{m.body}" for m in mail.outbox if user.email in m.to]
    texts += [f"{n.subject}\n{n.body}\n{n.url}" for n in Notice.objects.filter(user=user)]
    texts += [json.dumps(d.payload) for d in Delivery.objects.filter(tenant__in=tenant_ids(user))]
    return texts


def _questions(client, world) -> list[str]:
    """What-if both ways between the reader's tenant and the victim's (the asked addresses taken out)."""
    import ipaddress

    mine = str(next(ipaddress.ip_network(world.segment_a.subnet).hosts()))
    theirs = f"{SUBNET}5"
    texts = []
    for source, destination in ((mine, theirs), (theirs, mine)):
        body = {"source": source, "destination": destination, "protocol": "tcp", "port": 22}
        answer = client.post("/api/v1/what-if/", body, content_type="application/json").content.decode()
        texts.append(answer.replace(theirs, "").replace(mine, ""))
    return texts


def _reader(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("role", ATTACKERS)
def test_no_marker_of_another_tenant_reaches_any_channel_of_a_tenants_member(site, role):
    user = getattr(site, role)
    client = _reader(user)
    planted = _planted(site)
    api, pages = _read_api(client, site, planted), _crawl(client) + _read_pages_of(client, planted)
    channels = _channels(site, user) + _questions(client, site)
    texts = api + pages + channels
    found = sorted({m.group(0) for text in texts for m in FORBIDDEN.finditer(text)})
    leaks = [text[max(0, m.start() - 160) : m.end() + 80] for text in texts for m in FORBIDDEN.finditer(text)][:3]
    assert not found, f"{role} read another tenant's markers {found}: {leaks}"
    assert len(api) >= 60 and len(pages) >= 30 and channels  # the reading reached the site, not a login page


def test_a_site_admin_reads_every_marker_on_the_same_routes(site):
    """The positive control: each planted marker is on some channel, so the test above can fail."""
    client = _reader(site.admin)
    planted = _planted(site)
    texts = _read_api(client, site, planted) + _read_pages_of(client, planted) + _channels(site, site.admin)
    corpus = "\n".join(texts)
    assert [marker for marker in SEEN_BY_ADMIN if marker not in corpus] == []
    rule = client.get(reverse("firewallrule-detail", args=[site.wide_rule.pk])).json()
    assert any("zqv-victim" in f["message"] for f in rule["findings"])  # issue 31.1: admins still see whom
