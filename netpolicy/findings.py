"""Lint findings for the rules of a few tenants (a page of rules) in a bounded number of queries.

Only the tenants on the page and the site policies are built. Findings are rendered for a viewer
(core.viewer_text): names of other tenants' objects never reach a tenant's members. Which other
tenants a rule's sources reach is asked only for site admins (one query against the segments' GiST
index, at most EXPOSED_SHOWN segments per address); for anyone else a rule is measured against the
site's address pools and the tenant's own networks, which no other tenant's allocation moves, so
narrowing a group's addresses and reading the finding again learns nothing about other tenants.
"""

import threading
import time
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field
from types import SimpleNamespace

from django.db import connection

from core import viewer_text
from core.errors import ServiceError
from core.viewer_text import Viewer
from netpolicy import propagation
from netpolicy.checks import quarantine_note, site_for_reading
from netpolicy.choices import PoolKind, SegmentState
from netpolicy.compiler import analysis, vds
from netpolicy.compiler import model as ir
from netpolicy.models import Pool
from netpolicy.names import Names
from tenants.models import Tenant

BROKEN = "does-not-compile"
EXPOSED_SHOWN = 5
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


def findings(tenant_ids, viewer: Viewer) -> Findings:
    """Findings for these tenants' rules (None in the set: the site policies' rules), as the viewer may read them."""
    tenant_pks = sorted(t for t in set(tenant_ids) if t is not None)
    try:
        built = _built(tenant_pks)
    except ServiceError as exc:
        return Findings(broken={None: str(exc.detail)})  # the site part's own objects only (checks.site_broken)
    site, found = built.site, []
    if None in set(tenant_ids):
        found += analysis.cover_findings(site, None) + vds.notes(site, None)
    measure = _spaces(site, tenant_pks) if viewer.admin else _own_and_pools(site)  # each read once per call
    for tenant in site.tenants:
        if int(tenant.name[1:]) not in built.broken:
            found += analysis.cover_findings(site, tenant)
            for policy in tenant.policies:
                found += _exposure(site, policy, measure) + analysis.outside_findings(policy)
            found += vds.notes(site, tenant)  # how the vSphere switch filter enforces them, never silent
    return _rendered(found, built.broken, viewer)


def _rendered(found: list, broken: dict, viewer: Viewer) -> Findings:
    """The findings' messages with names for ids, as the viewer may read them (three queries in all)."""
    names = Names([f.message for f in found] + list(broken.values()), broken)
    result = Findings()
    for f in found:
        entry = {
            "kind": f.kind.value,
            "rule": int(f.rule[1:]),
            "message": names.readable(f.message, viewer),
            "by_rule": int(f.by_rule[1:]) if getattr(f, "by_rule", None) else None,
        }
        result.by_rule.setdefault(entry["rule"], []).append(entry)
    for pk, message in broken.items():
        slug = viewer_text.render_for(viewer, [names.tenant_ref(pk)])
        result.broken[pk] = quarantine_note(slug, names.readable(message, viewer))
    return result


def _exposure(site: ir.Site, policy, measure) -> list:
    """Exposure findings: against other tenants' segments (site admins: a list), else against the site's pools."""
    if isinstance(measure, list):
        return analysis.exposure_findings(site, policy, measure)
    return pool_exposure(policy, *measure)


def _own_and_pools(site: ir.Site) -> tuple[dict, dict]:
    """Each built tenant's own address space by name, and the site's prefix pools' (one query)."""
    return {t.name: analysis.cidr_space(t.cidrs) for t in site.tenants}, _pool_space()


def pool_exposure(policy, own: dict, pools: dict) -> list:
    """Allow rules into a tenant from addresses of the site's prefix pools beyond the tenant's own networks.

    What tenants other than the site admins are told: it depends only on the site's pools and the
    tenant's own networks, never on which addresses other tenants hold.
    """
    out = []
    for rule in policy.rules:
        if rule.action is not ir.Action.ALLOW or not rule.enabled or not policy.tenant:
            continue
        src, dst = analysis.address_space(rule.sources), analysis.address_space(rule.destinations)
        mine = own.get(policy.tenant, {})
        if not analysis.space_overlaps(dst, mine):
            continue
        if src is None and analysis.service_space(rule) is None:
            who = "every tenant on every port"
        elif src is not None and _beyond(src, pools, mine):
            who = "addresses the site assigns to other tenants (its sources reach beyond the tenant's own networks)"
        else:
            continue
        message = f"rule {policy.id}/{rule.id} exposes tenant {policy.tenant} to {who}"
        out.append(analysis.Finding(analysis.FindingKind.EXPOSES, policy.id, rule.id, message))
    return out


def _beyond(src: dict, pools: dict, own: dict) -> bool:
    """Whether some address of src lies in a site pool but outside the tenant's own networks."""
    for version, intervals in src.items():
        inside = [
            (max(lo, a), min(hi, b)) for lo, hi in intervals for a, b in pools.get(version, []) if lo <= b and a <= hi
        ]
        if inside and not analysis.contains(own.get(version, []), analysis.merge(inside)):
            return True
    return False


def _pool_space() -> dict:
    """The site's IPv4 and IPv6 prefix pools as address intervals (site configuration, not allocations)."""
    cidrs = Pool.objects.filter(kind__in=[PoolKind.IPV4, PoolKind.IPV6]).values_list("cidr", flat=True)
    return analysis.cidr_space(ir.parse_network(c, "pool") for c in cidrs)


def _built(tenant_pks: list[int]):
    """These tenants and the site, built for reading: a kept build of the same generations, or a new one."""
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
