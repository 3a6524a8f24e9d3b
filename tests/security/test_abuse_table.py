"""Attacks x roles: each is refused and changes nothing; a writable route or field without an entry fails."""

import datetime
import json

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from audit.context import acting_as, system_actor
from tests.security import routes
from tests.security.framework import (
    ROLES,
    assert_nothing_changed,
    assert_site_compiles,
    compiled_site,
    intent_tables,
    resolve_refs,
    state_digest,
    tables_read,
)
from tests.security.table import ENTRIES, EXEMPT, MODULES, PENDING
from tests.security.world import AbuseWorld


def _covered() -> set:
    """Route/method pairs, routes and (route, field) pairs the entries exercise."""
    keys = set()
    for entry in ENTRIES:
        keys |= {entry.route, (entry.route, entry.method)} | {(entry.route, f) for f in entry.body}
    return keys


def _uncovered(required) -> list:
    known = _covered() | set(PENDING) | set(EXEMPT)
    return sorted(k for k in required if k not in known and (k[0] if isinstance(k, tuple) else k) not in EXEMPT)


def test_every_writable_api_route_has_an_abuse_entry():
    missing = _uncovered(routes.writable_api_routes())
    assert not missing, f"writable API routes without an abuse entry (tests/security/entries/): {missing}"


def test_every_writable_field_has_an_abuse_entry():
    missing = _uncovered(routes.writable_fields())
    assert not missing, f"writable fields without an abuse entry (tests/security/entries/): {missing}"


def test_every_page_that_takes_a_post_has_an_abuse_entry():
    missing = _uncovered(routes.writable_page_routes())
    assert not missing, f"pages taking a POST without an abuse entry (tests/security/entries/): {missing}"


def test_pending_and_exempt_keys_still_exist_and_have_no_entries_yet():
    """A stale PENDING line (its entry landed, or the route is gone) must be removed."""
    real = routes.writable_api_routes() | routes.writable_fields() | routes.writable_page_routes()
    names = {k[0] if isinstance(k, tuple) else k for k in real}
    stale = [k for k in PENDING if (k not in real and k not in names)]
    covered = [k for k in PENDING if k in _covered() and not isinstance(k, str)]
    assert not stale, f"PENDING/EXEMPT keys that name no writable route or field: {stale}"
    assert not covered, f"PENDING keys that now have entries (remove them from PENDING): {covered}"


def test_every_entry_is_well_formed():
    for entry in ENTRIES:
        assert entry.attackers and set(entry.attackers) <= set(ROLES), entry.attack
        assert entry.control is None or entry.control in (*ROLES, "node_a"), entry.attack
        assert entry.method in routes.WRITE_METHODS, entry.attack


# ---------------------------------------------------------------- the attacks


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Built once for the module, inside a transaction that is rolled back at its end."""
    with django_db_blocker.unblock(), acting_as(system_actor("abuse-suite")), transaction.atomic():
        world = AbuseWorld(MODULES)
        yield world
        transaction.set_rollback(True)


def _client(entry, role, world):
    client = APIClient() if entry.is_api else Client()
    if role.startswith("node_"):
        client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {getattr(world, role + '_credential')}"
    elif role != "anonymous":
        client.force_login(getattr(world, role))
    return client


def _send(entry, role, world):
    kwargs = resolve_refs(entry.kwargs, world)
    if entry.target:
        kwargs["pk"] = getattr(world, entry.target).pk
    url = reverse(entry.route, kwargs=kwargs)
    body = resolve_refs(entry.body, world)
    client = _client(entry, role, world)
    if entry.is_api:
        return client.generic(entry.method.upper(), url, json.dumps(body), content_type="application/json")
    return client.post(url, body)


def _params():
    for entry in ENTRIES:
        marks = [pytest.mark.xfail(strict=True, reason=entry.pending)] if entry.pending else []
        yield pytest.param(entry, id=f"{entry.route}:{entry.method}:{entry.attack[:70]}", marks=marks)


@pytest.mark.parametrize("entry", list(_params()))
def test_each_attack_is_refused_and_changes_nothing(entry, world, db):
    before = state_digest()  # also fails when the site no longer compiles
    for role in entry.attackers:
        response = _send(entry, role, world)
        assert response.status_code in entry.statuses(role), (
            f"{entry.attack} — as {role}: {response.status_code} {response.content[:300]!r}"
        )
        before = assert_nothing_changed(before, f"{entry.attack} — as {role}")  # and the next one's before
    if entry.control:
        response = _send(entry, entry.control, world)
        assert 200 <= response.status_code < 400, (
            f"control for {entry.attack!r} as {entry.control}: {response.status_code} {response.content[:300]!r}"
        )
        assert (state_digest()[0] != before[0]) == entry.control_changes, f"control for {entry.attack!r}"
        assert_site_compiles()


def test_the_compiled_site_reads_only_intent_tables_and_not_the_clock(world, db, monkeypatch):
    """Why assert_nothing_changed() compares the intent tables alone: the same rows compile to the same site."""
    read = tables_read(compiled_site)
    assert "netpolicy_firewallrule" in read and "netpolicy_segment" in read  # the capture sees the compile
    assert read <= intent_tables(), f"the site compile reads tables outside INTENT_APPS: {read - intent_tables()}"
    now, today = timezone.now(), timezone.localdate()
    first = compiled_site()
    monkeypatch.setattr(timezone, "now", lambda: now + datetime.timedelta(days=400))
    monkeypatch.setattr(timezone, "localdate", lambda *a, **k: today + datetime.timedelta(days=400))
    assert compiled_site() == first
