"""Segment lifecycle: request with next-free or explicit ids and subnets, approve, retire."""

import hashlib
import ipaddress
from itertools import islice

from django.db import IntegrityError, connection, transaction
from django.db.models import Q

from audit.services import record, snapshot
from core import viewer_text
from core.addresses import AddressError, parse_address, parse_network
from core.errors import Conflict, Forbidden, InvalidRequest, QuotaExceeded
from core.viewer_text import SITE_ADMIN, Viewer
from netpolicy import node_pools
from netpolicy.allocation import (
    ID_COLUMN,
    POOL_FOR,
    PoolExhausted,
    free_ids,
    free_subnets,
    next_free_id,
    next_free_subnet,
)
from netpolicy.checks import compiling
from netpolicy.choices import PoolKind, SegmentState
from netpolicy.models import LIVE, Pool, Segment
from tenants import notifications
from tenants.access import is_site_admin, require_member, require_owner_or_admin
from tenants.models import Tenant
from tenants.network import network_changed
from tenants.quotas import locked_quota

S = SegmentState
SEGMENT_FIELDS = ("name", "kind", "mtu", "data_path", "vsphere_cluster", "node_pool")
PREFIX_KINDS_BY_VERSION = {4: (PoolKind.IPV4,), 6: (PoolKind.IPV6,)}


def _candidate_pools(kind: str, tenant: Tenant):
    """Pools usable by the tenant: reserved for it first, then shared ones, by name."""
    pools = Pool.objects.filter(Q(tenant=tenant) | Q(tenant__isnull=True), kind=kind)
    return sorted(pools, key=lambda p: (p.tenant_id is None, p.name))


def peek_next_id(tenant: Tenant, kind: str) -> int | None:
    """The id a new segment of this kind would get now, without reserving it (for plan previews)."""
    for pool in _candidate_pools(POOL_FOR[kind], tenant):
        try:
            return next_free_id(pool, ID_COLUMN[kind])
        except PoolExhausted:
            continue
    return None


def _check_pool_use(pool: Pool, tenant: Tenant, kind: str) -> None:
    if pool.kind != kind:
        raise InvalidRequest(f"Pool {pool.name} is a {pool.kind} pool, not {kind}.", "pool")
    if pool.tenant_id not in (None, tenant.pk):
        raise InvalidRequest(f"Pool {pool.name} is reserved for another tenant.", "pool")


# ---------------------------------------------------------------- claims
# Concurrent allocations from one pool do not queue on a lock: each claims its candidate with a
# transaction-scoped advisory lock that the others skip (pg_try_advisory_xact_lock never waits),
# so they take different next-free values. The unique and exclusion constraints still decide; a
# value committed by another allocation after it was read is retried with the next one.
MAX_SKIPPED = 256  # candidates claimed by concurrent allocations that one allocation passes over
ATTEMPTS = 4  # allocations retried after losing a value to a concurrent commit


class _Claims:
    """The candidates this allocation claimed or lost; a lost one is never chosen again."""

    def __init__(self):
        self.lost: set = set()

    def take(self, *key) -> bool:
        """Claim the candidate for this transaction, unless another allocation holds it."""
        if key in self.lost:
            return False
        digest = hashlib.blake2b(repr(key).encode(), digest_size=8).digest()
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [int.from_bytes(digest, "big", signed=True)])
            return cursor.fetchone()[0]


def _claim_first(claims: _Claims, pool: Pool, what: str, candidates, taken):
    """The lowest free candidate no concurrent allocation holds; None if the pool is exhausted.

    The candidates were read before the claim: one whose claimant committed since is taken(),
    which is checked again once claimed (a claim only succeeds after its last holder's commit)."""
    for candidate in islice(candidates, MAX_SKIPPED):
        key = (pool.pk, what, str(candidate))
        if claims.take(*key):
            if not taken(candidate):
                return candidate
            claims.lost.add(key)
    return None


def _choose_id(tenant: Tenant, kind: str, data: dict, claims: _Claims) -> tuple[Pool, int]:
    """The id pool and the id: explicit (validated) or next-free over the candidate pools."""
    column = ID_COLUMN[kind]
    pools = [data["id_pool"]] if data.get("id_pool") else _candidate_pools(POOL_FOR[kind], tenant)
    if not pools:
        raise InvalidRequest(f"No {POOL_FOR[kind]} pool is defined.", "id_pool")
    wanted = data.get(column)
    errors = []
    for pool in pools:
        _check_pool_use(pool, tenant, POOL_FOR[kind])
        if wanted is None:
            used = Segment.objects.filter(LIVE, id_pool=pool)
            ident = _claim_first(claims, pool, column, free_ids(pool, column),
                                 lambda value, used=used: used.filter(**{column: value}).exists())  # fmt: skip
            if ident is not None:
                return pool, ident
            errors.append(f"Pool {pool.name} is exhausted: all {pool.size} ids are in use.")
            continue
        if pool.first <= wanted <= pool.last:
            if Segment.objects.filter(LIVE, id_pool=pool, **{column: wanted}).exists():
                raise InvalidRequest(f"{column} {wanted} is already in use in pool {pool.name}.", column)
            return pool, wanted
    if wanted is not None:
        raise InvalidRequest(f"{column} {wanted} is outside every usable pool.", column)
    raise PoolExhausted(" ".join(errors))


def _parse_subnet(text: str):
    try:
        return parse_network(text)
    except AddressError as exc:
        raise InvalidRequest(str(exc), "subnet") from None


def _check_block(pool: Pool, prefix_length: int, admin: bool) -> None:
    """Tenants take blocks no larger than the pool allows (site admins may carve larger ones)."""
    if not admin and prefix_length < pool.tenant_min_prefix_length:
        raise InvalidRequest(
            f"Pool {pool.name} gives tenants at most a /{pool.tenant_min_prefix_length}; "
            f"/{prefix_length} is larger. Ask a site admin for a larger block.",
            "prefix_length",
        )


def _choose_subnet(tenant: Tenant, data: dict, claims: _Claims, admin: bool) -> tuple[Pool, ipaddress._BaseNetwork]:
    """The prefix pool and subnet: explicit (inside a pool, not overlapping) or next-free."""
    if data.get("subnet"):
        net = _parse_subnet(data["subnet"])
        pools = (
            [data["prefix_pool"]]
            if data.get("prefix_pool")
            else [p for k in PREFIX_KINDS_BY_VERSION[net.version] for p in _candidate_pools(k, tenant)]
        )
        for pool in pools:
            supernet = ipaddress.ip_network(pool.cidr)
            if net.version == supernet.version and net.subnet_of(supernet):
                _check_pool_use(pool, tenant, pool.kind)
                _check_block(pool, net.prefixlen, admin)
                _check_overlap(net, pool, SITE_ADMIN if admin else Viewer(frozenset({tenant.pk})))
                return pool, net
        raise InvalidRequest(f"Subnet {net} is outside every usable address pool.", "subnet")
    pool = data.get("prefix_pool") or next(iter(_candidate_pools(PoolKind.IPV4, tenant)), None)
    if pool is None:
        raise InvalidRequest("No IPv4 pool is defined.", "prefix_pool")
    _check_pool_use(pool, tenant, pool.kind)
    _check_block(pool, data.get("prefix_length") or pool.prefix_length, admin)
    used = Segment.objects.filter(LIVE, routing_domain=pool.routing_domain)
    net = _claim_first(claims, pool, "subnet", free_subnets(pool, data.get("prefix_length")),
                       lambda value: used.filter(subnet__net_overlaps=str(value)).exists())  # fmt: skip
    if net is None:
        next_free_subnet(pool, data.get("prefix_length"))  # raises the pool's exhaustion
        raise Conflict("Every free subnet is being taken by concurrent requests; try again.")
    return pool, net


def _check_overlap(net, pool: Pool, viewer: Viewer) -> None:
    """A subnet overlapping a live segment is refused; the clash is named only to whom it may be shown."""
    clash = Segment.objects.filter(LIVE, routing_domain=pool.routing_domain, subnet__net_overlaps=str(net)).first()
    if clash is not None:
        held = viewer_text.owned(clash.tenant_id, clash.subnet, viewer_text.OTHER_NETWORK)
        text = viewer_text.render_for(viewer, [f"Subnet {net} overlaps an existing segment's subnet (", held, ")."])
        raise InvalidRequest(text, "subnet")


def _gateway(net, wanted: str | None) -> str:
    """The requested gateway (must be a host of the subnet) or the subnet's first host."""
    if not wanted:
        return str(next(iter(net.hosts()), net.network_address))
    try:
        addr = parse_address(wanted)
    except AddressError as exc:
        raise InvalidRequest(str(exc), "gateway") from None
    if addr.version != net.version or addr not in net or addr in (net.network_address, net.broadcast_address):
        raise InvalidRequest(f"Gateway {addr} is not a host address of {net}.", "gateway")
    return str(addr)


def _check_quota(tenant: Tenant, admin: bool) -> None:
    """Requested segments count like approved ones, and only a few may await approval at once."""
    quota = locked_quota(tenant.pk)  # a tenant without a quota row gets zero limits, not a 500
    live = Segment.objects.filter(LIVE, tenant=tenant).count()
    if live >= quota.max_segments:
        raise QuotaExceeded([f"segments: {live} of {quota.max_segments} in use (requests included)"])
    pending = Segment.objects.filter(tenant=tenant, state=S.REQUESTED).count()
    if not admin and pending >= quota.max_pending_segments:
        raise QuotaExceeded([f"segment requests: {pending} of {quota.max_pending_segments} already await approval"])


def waiting_for_admin() -> int:
    """Segment requests waiting for a site admin (tenants' approvals counts and digest ask, one query)."""
    return Segment.objects.filter(state=S.REQUESTED).count()


def create_segment(tenant: Tenant, user, data: dict) -> Segment:
    """Request a segment; ids and subnet are reserved at once, site admins' are approved."""
    require_member(user, tenant)
    with transaction.atomic(), compiling(tenant.pk):  # the tenant's groups name its segments
        admin = is_site_admin(user)
        _check_quota(tenant, admin)
        claims = _Claims()
        for attempt in range(ATTEMPTS):
            segment = _new_segment(tenant, user, data, claims, admin)
            node_pools.check_segment(segment)
            try:
                with transaction.atomic():
                    segment.save()
                    node_pools.link(segment)
                break
            except IntegrityError as exc:
                lost = _lost_to_a_concurrent_commit(exc, segment, data)
                if lost is None or attempt == ATTEMPTS - 1:
                    raise Conflict(f"Segment collides with another one: {_constraint(exc)}.") from None
                claims.lost.add(lost)
        record("segment.create", segment, after=_snapshot(segment), tenant=tenant)
        if segment.state == S.REQUESTED:
            notifications.segment_requested(segment)
        if segment.node_pool_id:
            network_changed([tenant])  # an admin's overlay segment is approved at once
    return segment


def _snapshot(segment: Segment) -> dict:
    """The audit's view of a segment: its fields and its node pool (a link agents holds)."""
    return {**snapshot(segment), "node_pool": segment.node_pool_id}


def _new_segment(tenant: Tenant, user, data: dict, claims: _Claims, admin: bool) -> Segment:
    id_pool, ident = _choose_id(tenant, data["kind"], data, claims)
    prefix_pool, net = _choose_subnet(tenant, data, claims, admin)
    return Segment(
        tenant=tenant,
        id_pool=id_pool,
        prefix_pool=prefix_pool,
        subnet=str(net),
        gateway=_gateway(net, data.get("gateway")),
        routing_domain=prefix_pool.routing_domain,
        state=S.APPROVED if admin else S.REQUESTED,
        requested_by=user,
        **{ID_COLUMN[data["kind"]]: ident},
        **{k: data[k] for k in SEGMENT_FIELDS if k in data},
    )


def _lost_to_a_concurrent_commit(exc: IntegrityError, segment: Segment, data: dict):
    """The claim key of a next-free value another allocation committed first (None: not that)."""
    column = ID_COLUMN[segment.kind]
    constraint = _constraint(exc)
    if constraint in ("segment_vlan_unique_in_pool", "segment_vni_unique_in_pool") and data.get(column) is None:
        return (segment.id_pool_id, column, str(getattr(segment, column)))
    if constraint == "segment_subnets_no_overlap" and not data.get("subnet"):
        return (segment.prefix_pool_id, "subnet", str(segment.subnet))
    return None


def _constraint(exc: IntegrityError) -> str:
    cause = getattr(exc, "__cause__", None)
    diag = getattr(cause, "diag", None)
    return getattr(diag, "constraint_name", None) or "unique or overlap constraint"


def transition_segment(segment: Segment, user, action: str, to_state: str, reason: str = "") -> Segment:
    """Approve, reject or retire a segment (site admins; owners may retire their own)."""
    allowed = {
        S.APPROVED: {S.REQUESTED},
        S.REJECTED: {S.REQUESTED},
        S.RETIRED: {S.REQUESTED, S.APPROVED, S.READY, S.ERROR},
    }[to_state]
    if not is_site_admin(user) and to_state != S.RETIRED:
        raise Forbidden("Only site admins approve or reject segments.")
    require_owner_or_admin(user, segment.tenant_id)
    with transaction.atomic(), compiling(segment.tenant_id):
        current = Segment.objects.select_for_update().get(pk=segment.pk)
        if current.state not in allowed:
            raise Conflict(f"Cannot {action}: the segment is {current.state}.")
        before = _snapshot(current)
        current.state = to_state
        current.generation += 1
        node_pools.check_segment(current)
        current.save(update_fields=["state", "generation", "updated"])
        record(
            f"segment.{action}",
            current,
            before=before,
            after=_snapshot(current),
            tenant=current.tenant_id,
            message=reason,
        )
        if to_state in (S.APPROVED, S.REJECTED):
            notifications.segment_decided(current, reason)
        if current.node_pool_id:
            network_changed([current.tenant_id])
    return current
