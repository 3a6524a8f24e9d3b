"""Pools and segments: next-free or explicit ids and subnets, never colliding, audited."""

import ipaddress

from django.db import IntegrityError, transaction

from audit.services import record, snapshot
from netpolicy.choices import ID_KINDS, PoolKind, SegmentKind
from netpolicy.models import LIVE, Pool, Segment
from portal.addresses import AddressError, parse_network
from portal.errors import Forbidden, InvalidRequest, ServiceError
from tenants.access import is_site_admin

ID_COLUMN = {SegmentKind.VLAN: "vlan_id", SegmentKind.OVERLAY: "vni"}
POOL_FOR = {SegmentKind.VLAN: PoolKind.VLAN, SegmentKind.OVERLAY: PoolKind.VNI}


class PoolExhausted(ServiceError):
    status_code = 409
    code = "pool_exhausted"


# ---------------------------------------------------------------- pools


def create_pool(user, data: dict) -> Pool:
    """Define a pool (site admins); overlapping pools are refused by the database too."""
    if not is_site_admin(user):
        raise Forbidden("Only site admins define pools.")
    pool = Pool(**data)
    _check_pool(pool)
    with transaction.atomic():
        try:
            with transaction.atomic():
                pool.save()
        except IntegrityError:
            raise InvalidRequest(f"Pool {pool.name} overlaps an existing {pool.kind} pool "
                                 "(or its name is taken).") from None
        record("pool.create", pool, after=snapshot(pool), tenant=pool.tenant_id)
    return pool


def _check_pool(pool: Pool) -> None:
    if pool.kind in ID_KINDS:
        if pool.default_prefix_length is not None or pool.min_prefix_length is not None:
            raise InvalidRequest(f"A {pool.kind} pool has no prefix lengths.", "default_prefix_length")
        if pool.first is None or pool.last is None or pool.cidr:
            raise InvalidRequest(f"A {pool.kind} pool needs first and last, and no cidr.")
        if pool.first > pool.last:
            raise InvalidRequest(f"first ({pool.first}) is after last ({pool.last}).", "first")
        return
    if not pool.cidr or pool.first is not None or pool.last is not None:
        raise InvalidRequest(f"A {pool.kind} pool needs a cidr, and no first/last.", "cidr")
    try:
        net = parse_network(pool.cidr)
    except AddressError as exc:
        raise InvalidRequest(str(exc), "cidr") from None
    if (net.version == 6) != (pool.kind == PoolKind.IPV6):
        raise InvalidRequest(f"{pool.cidr} is not an {pool.kind} network.", "cidr")
    if pool.kind == PoolKind.CGNAT and not net.subnet_of(ipaddress.ip_network("100.64.0.0/10")):
        raise InvalidRequest("A CGNAT pool must lie inside 100.64.0.0/10.", "cidr")
    for name in ("default_prefix_length", "min_prefix_length"):
        plen = getattr(pool, name)
        if plen is not None and not net.prefixlen <= plen <= net.max_prefixlen:
            raise InvalidRequest(f"{name} must be between {net.prefixlen} and {net.max_prefixlen}.", name)
    if pool.min_prefix_length and pool.min_prefix_length > pool.prefix_length:
        raise InvalidRequest(f"min_prefix_length (/{pool.min_prefix_length}) would forbid tenants the pool's own "
                             f"default (/{pool.prefix_length}).", "min_prefix_length")


def pool_usage(pool: Pool) -> dict:
    """Used and free counts (ids, or default-length subnets' worth of addresses)."""
    if pool.is_id_pool:
        used = Segment.objects.filter(LIVE, id_pool=pool).count()
        return {"size": pool.size, "used": used, "free": pool.size - used}
    net = ipaddress.ip_network(pool.cidr)
    addresses = sum(ipaddress.ip_network(s).num_addresses for s in
                    Segment.objects.filter(LIVE, prefix_pool=pool).values_list("subnet", flat=True))
    block = 2 ** (net.max_prefixlen - pool.prefix_length)
    used = -(-addresses // block)
    return {"size": pool.size, "used": used, "free": max(pool.size - used, 0)}


# ---------------------------------------------------------------- next-free search


def next_free_id(pool: Pool, column: str) -> int:
    """Lowest id of the pool no live segment uses."""
    used = Segment.objects.filter(LIVE, id_pool=pool).order_by(column)
    candidate = pool.first
    for value in used.values_list(column, flat=True).iterator():
        if value > candidate:
            break
        candidate = max(candidate, value + 1)
    if candidate > pool.last:
        raise PoolExhausted(f"Pool {pool.name} is exhausted: all {pool.size} ids are in use.")
    return candidate


def _used_networks(pool: Pool) -> list:
    """Live subnets of the routing domain inside the pool's supernet, by start address."""
    net = ipaddress.ip_network(pool.cidr)
    subnets = Segment.objects.filter(LIVE, routing_domain=pool.routing_domain,
                                     subnet__net_overlaps=pool.cidr)
    nets = [ipaddress.ip_network(s) for s in subnets.values_list("subnet", flat=True)]
    return sorted((n for n in nets if n.version == net.version), key=lambda n: n.network_address)


def next_free_subnet(pool: Pool, prefix_length: int | None = None):
    """First aligned block of the wanted length that overlaps no live subnet."""
    net = ipaddress.ip_network(pool.cidr)
    plen = prefix_length or pool.prefix_length
    if not net.prefixlen <= plen <= net.max_prefixlen:
        raise InvalidRequest(f"Prefix length /{plen} does not fit pool {pool.name} ({net}).",
                             "prefix_length")
    size = 2 ** (net.max_prefixlen - plen)
    start, end = int(net.network_address), int(net.broadcast_address)
    candidate = start
    for used in _used_networks(pool):
        lo, hi = int(used.network_address), int(used.broadcast_address)
        if hi < candidate:
            continue
        if lo > candidate + size - 1:
            break
        candidate = -(-(hi + 1) // size) * size  # align up past the used block
    if candidate + size - 1 > end:
        raise PoolExhausted(f"Pool {pool.name} is exhausted: no free /{plen} left in {net}.")
    return ipaddress.ip_network((candidate, plen))
