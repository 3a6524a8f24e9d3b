"""Lint findings for the rules of a few tenants (a page of rules) in a bounded number of queries.

Only the tenants on the page and the site policies are built; which other tenants a rule's sources
reach is one query against the segments' GiST index, at most EXPOSED_SHOWN segments per address.
"""

import re
import threading
import time
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field
from types import SimpleNamespace

from django.db import connection

from netpolicy import propagation
from netpolicy.choices import SegmentState
from netpolicy.compiler import analysis, vds
from netpolicy.compiler import model as ir
from netpolicy.models import FirewallPolicy, FirewallRule
from tenants.models import Tenant

BROKEN = "does-not-compile"
EXPOSED_SHOWN = 5
TOKEN = re.compile(r"\b([rpqt])(\d+)\b")
RELEASED = (SegmentState.REJECTED, SegmentState.RETIRED)
# Lint reads the same few tenants again and again (each API page, each look at the firewall page), so a
# process keeps its last builds, keyed by what they were built from: the tenants' and the site's network
# generations, which every change of a policy, group, service, segment or address moves in its own
# transaction (netpolicy.propagation). Exposure, which reads other tenants' segments, is never kept.
# The age limit bounds what a change made outside the services (a shell) would leave shown.
KEPT_BUILDS, KEPT_SECONDS = 64, 60.0
_kept: OrderedDict = OrderedDict()
_kept_lock = threading.Lock()


@dataclass
class Findings:
    """Findings by rule id, and the tenants (None: the site) whose policy does not compile."""

    by_rule: dict = field(default_factory=dict)
    broken: dict = field(default_factory=dict)

    def for_rule(self, rule_id: int, tenant_id: int | None) -> list[dict]:
        """A rule's findings; every rule of a policy that does not compile says so instead."""
        why = self.broken.get(None) or self.broken.get(tenant_id)
        if why:
            return [{"kind": BROKEN, "rule": rule_id, "message": why, "by_rule": None}]
        return self.by_rule.get(rule_id, [])


def findings(tenant_ids) -> Findings:
    """Findings for these tenants' rules (None in the set: the site policies' rules)."""
    from netpolicy.checks import quarantine_note
    from portal.errors import ServiceError

    tenant_pks = sorted(t for t in set(tenant_ids) if t is not None)
    try:
        built = _built(tenant_pks)
    except ServiceError as exc:
        return Findings(broken={None: str(exc.detail)})
    site, found = built.site, []
    if None in set(tenant_ids):
        found += analysis.cover_findings(site, None) + vds.notes(site, None)
    spaces = _spaces(site, tenant_pks)
    for tenant in site.tenants:
        if int(tenant.name[1:]) not in built.broken:
            found += analysis.cover_findings(site, tenant)
            for policy in tenant.policies:
                found += analysis.exposure_findings(site, policy, spaces) + analysis.outside_findings(policy)
            found += vds.notes(site, tenant)  # how the vSphere switch filter enforces them, never silent
    names = Names([f.message for f in found] + list(built.broken.values()), built.broken)
    result = Findings()
    for f in found:
        entry = {
            "kind": f.kind.value,
            "rule": int(f.rule[1:]),
            "message": names.readable(f.message),
            "by_rule": int(f.by_rule[1:]) if getattr(f, "by_rule", None) else None,
        }
        result.by_rule.setdefault(entry["rule"], []).append(entry)
    for pk, message in built.broken.items():
        result.broken[pk] = quarantine_note(names.tenant(pk), names.readable(message))
    return result


def _built(tenant_pks: list[int]):
    """These tenants and the site, built for reading: a kept build of the same generations, or a new one."""
    from netpolicy.checks import site_for_reading

    tenants = list(Tenant.objects.filter(pk__in=tenant_pks).order_by("pk"))
    key = (tuple((t.pk, t.network_generation) for t in tenants), propagation.site_generation())
    now = time.monotonic()
    with _kept_lock:
        kept = _kept.get(key)
        if kept is not None and now - kept[0] < KEPT_SECONDS:
            _kept.move_to_end(key)
            return kept[1]
    built = site_for_reading(tenants)  # after the generations: a build may be newer than its key, never older
    with _kept_lock:
        _kept[key] = (now, built)
        _kept.move_to_end(key)
        while len(_kept) > KEPT_BUILDS:
            _kept.popitem(last=False)
    return built


def forget_builds() -> None:
    """Drop the kept builds (tests, whose rolled-back databases reuse generations)."""
    with _kept_lock:
        _kept.clear()


def _spaces(site: ir.Site, tenant_pks: list) -> list:
    """Address spaces of the built tenants, plus other tenants' segments that the built rules' sources reach."""
    spaces = [(t, analysis.cidr_space(t.cidrs)) for t in site.tenants]
    sources = sorted({str(net) for t in site.tenants for p in t.policies for r in p.rules
                      if r.action is ir.Action.ALLOW for g in r.sources for net in g.cidrs})  # fmt: skip
    if not sources:
        return spaces
    reached = defaultdict(list)
    for tenant_id, subnet in _reached(sources, tenant_pks):
        reached[tenant_id].append(subnet)
    return spaces + [(SimpleNamespace(name=f"t{pk}"), analysis.cidr_space(ir.parse_network(s, "segment")
                      for s in subnets)) for pk, subnets in sorted(reached.items())]  # fmt: skip


def _reached(sources: list[str], exclude: list[int]) -> list[tuple[int, str]]:
    """(tenant, subnet) of live segments of other tenants overlapping each source (a few per source)."""
    sql = """
        SELECT DISTINCT s.tenant_id, s.subnet::text
        FROM unnest(%s::cidr[]) AS src(net)
        CROSS JOIN LATERAL (
            SELECT tenant_id, subnet FROM netpolicy_segment
            WHERE subnet && src.net AND NOT (state = ANY(%s)) AND NOT (tenant_id = ANY(%s))
            LIMIT %s
        ) AS s
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [sources, list(RELEASED), exclude, EXPOSED_SHOWN])
        return cursor.fetchall()


class Names:
    """IR ids (r12, p3, q5, t7) in messages replaced by names, fetched in three queries for all messages."""

    def __init__(self, messages, tenants=()):
        ids = defaultdict(set, t=set(tenants))
        for message in messages:
            for kind, number in TOKEN.findall(message):
                ids[kind].add(int(number))
        self.rules = FirewallRule.objects.in_bulk(ids["r"]) if ids["r"] else {}
        self.policies = FirewallPolicy.objects.select_related("tenant").in_bulk(ids["p"]) if ids["p"] else {}
        wanted = ids["t"] | ids["q"]
        self.tenants = dict(Tenant.objects.filter(pk__in=wanted).values_list("pk", "slug")) if wanted else {}

    def tenant(self, pk: int) -> str:
        return self.tenants.get(pk) or f"t{pk}"

    def _name(self, match) -> str:
        kind, pk = match[1], int(match[2])
        if kind == "r" and pk in self.rules:
            return f"'{self.rules[pk].name}'"
        if kind == "p" and pk in self.policies:
            return str(self.policies[pk])
        if kind == "t" and pk in self.tenants:
            return self.tenants[pk]
        if kind == "q" and pk in self.tenants:
            return f"{self.tenants[pk]}/quarantine"
        return match[0]

    def readable(self, message: str) -> str:
        return TOKEN.sub(self._name, message)


def readable(message: str) -> str:
    """One message with its IR ids replaced by names."""
    return Names([message]).readable(message)
