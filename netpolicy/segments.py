"""Segment lifecycle: request with next-free or explicit ids and subnets, approve, retire."""

import ipaddress

from django.db import IntegrityError, transaction
from django.db.models import Q

from audit.services import record, snapshot
from netpolicy.allocation import (
    ID_COLUMN,
    POOL_FOR,
    PoolExhausted,
    next_free_id,
    next_free_subnet,
)
from netpolicy.checks import compiling
from netpolicy.choices import PoolKind, SegmentState
from netpolicy.models import LIVE, Pool, Segment
from portal.addresses import AddressError, parse_address, parse_network
from portal.errors import Conflict, Forbidden, InvalidRequest, QuotaExceeded
from tenants.access import is_site_admin, require_member, require_owner_or_admin
from tenants.models import Quota, Tenant

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


def _choose_id(tenant: Tenant, kind: str, data: dict) -> tuple[Pool, int]:
    """The id pool and the id: explicit (validated) or next-free over the candidate pools."""
    column = ID_COLUMN[kind]
    pools = [data["id_pool"]] if data.get("id_pool") else _candidate_pools(POOL_FOR[kind], tenant)
    if not pools:
        raise InvalidRequest(f"No {POOL_FOR[kind]} pool is defined.", "id_pool")
    wanted = data.get(column)
    errors = []
    for pool in pools:
        _check_pool_use(pool, tenant, POOL_FOR[kind])
        pool = Pool.objects.select_for_update().get(pk=pool.pk)  # serializes allocations
        if wanted is None:
            try:
                return pool, next_free_id(pool, column)
            except PoolExhausted as exc:
                errors.append(exc.detail)
                continue
        if pool.first <= wanted <= pool.last:
            if Segment.objects.filter(LIVE, id_pool=pool, **{column: wanted}).exists():
                raise InvalidRequest(f"{column} {wanted} is already in use in pool {pool.name}.",
                                     column)
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
        raise InvalidRequest(f"Pool {pool.name} gives tenants at most a /{pool.tenant_min_prefix_length}; "
                             f"/{prefix_length} is larger. Ask a site admin for a larger block.", "prefix_length")


def _choose_subnet(tenant: Tenant, data: dict, admin: bool = False) -> tuple[Pool, ipaddress._BaseNetwork]:
    """The prefix pool and subnet: explicit (inside a pool, not overlapping) or next-free."""
    if data.get("subnet"):
        net = _parse_subnet(data["subnet"])
        pools = [data["prefix_pool"]] if data.get("prefix_pool") else [
            p for k in PREFIX_KINDS_BY_VERSION[net.version] for p in _candidate_pools(k, tenant)]
        for pool in pools:
            supernet = ipaddress.ip_network(pool.cidr)
            if net.version == supernet.version and net.subnet_of(supernet):
                _check_pool_use(pool, tenant, pool.kind)
                _check_block(pool, net.prefixlen, admin)
                Pool.objects.select_for_update().get(pk=pool.pk)
                _check_overlap(net, pool)
                return pool, net
        raise InvalidRequest(f"Subnet {net} is outside every usable address pool.", "subnet")
    pool = data.get("prefix_pool") or next(iter(_candidate_pools(PoolKind.IPV4, tenant)), None)
    if pool is None:
        raise InvalidRequest("No IPv4 pool is defined.", "prefix_pool")
    _check_pool_use(pool, tenant, pool.kind)
    _check_block(pool, data.get("prefix_length") or pool.prefix_length, admin)
    pool = Pool.objects.select_for_update().get(pk=pool.pk)
    return pool, next_free_subnet(pool, data.get("prefix_length"))


def _check_overlap(net, pool: Pool) -> None:
    clash = Segment.objects.filter(LIVE, routing_domain=pool.routing_domain,
                                   subnet__net_overlaps=str(net)).first()
    if clash is not None:
        raise InvalidRequest(f"Subnet {net} overlaps an existing segment's subnet "
                             f"({clash.subnet}).", "subnet")


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
    quota = Quota.objects.select_for_update().get(tenant=tenant)
    live = Segment.objects.filter(LIVE, tenant=tenant).count()
    if live >= quota.max_segments:
        raise QuotaExceeded([f"segments: {live} of {quota.max_segments} in use (requests included)"])
    pending = Segment.objects.filter(tenant=tenant, state=S.REQUESTED).count()
    if not admin and pending >= quota.max_pending_segments:
        raise QuotaExceeded([f"segment requests: {pending} of {quota.max_pending_segments} already await approval"])


def create_segment(tenant: Tenant, user, data: dict) -> Segment:
    """Request a segment; ids and subnet are reserved at once, site admins' are approved."""
    require_member(user, tenant)
    with transaction.atomic(), compiling(tenant.pk):  # the tenant's groups name its segments
        admin = is_site_admin(user)
        _check_quota(tenant, admin)
        id_pool, ident = _choose_id(tenant, data["kind"], data)
        prefix_pool, net = _choose_subnet(tenant, data, admin)
        segment = Segment(
            tenant=tenant, id_pool=id_pool, prefix_pool=prefix_pool, subnet=str(net),
            gateway=_gateway(net, data.get("gateway")), routing_domain=prefix_pool.routing_domain,
            state=S.APPROVED if admin else S.REQUESTED, requested_by=user,
            **{ID_COLUMN[data["kind"]]: ident},
            **{k: data[k] for k in SEGMENT_FIELDS if k in data},
        )
        try:
            with transaction.atomic():
                segment.save()
        except IntegrityError as exc:
            raise Conflict(f"Segment collides with another one: {_constraint(exc)}.") from None
        record("segment.create", segment, after=snapshot(segment), tenant=tenant)
    return segment


def _constraint(exc: IntegrityError) -> str:
    cause = getattr(exc, "__cause__", None)
    diag = getattr(cause, "diag", None)
    return getattr(diag, "constraint_name", None) or "unique or overlap constraint"


def transition_segment(segment: Segment, user, action: str, to_state: str,
                       reason: str = "") -> Segment:
    """Approve, reject or retire a segment (site admins; owners may retire their own)."""
    allowed = {S.APPROVED: {S.REQUESTED}, S.REJECTED: {S.REQUESTED},
               S.RETIRED: {S.REQUESTED, S.APPROVED, S.READY, S.ERROR}}[to_state]
    if not is_site_admin(user) and to_state != S.RETIRED:
        raise Forbidden("Only site admins approve or reject segments.")
    require_owner_or_admin(user, segment.tenant_id)
    with transaction.atomic(), compiling(segment.tenant_id):
        current = Segment.objects.select_for_update().get(pk=segment.pk)
        if current.state not in allowed:
            raise Conflict(f"Cannot {action}: the segment is {current.state}.")
        before = snapshot(current)
        current.state = to_state
        current.generation += 1
        current.save(update_fields=["state", "generation", "updated"])
        record(f"segment.{action}", current, before=before, after=snapshot(current),
               tenant=current.tenant_id, message=reason)
    return current
