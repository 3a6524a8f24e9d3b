"""Pools and segments: next-free or explicit ids and subnets, never colliding, audited."""

import ipaddress
from collections.abc import Iterator

from django.db import IntegrityError, transaction
from django.db.models import Count, DecimalField, Func, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from audit.services import record, snapshot
from core.addresses import AddressError, parse_network
from core.errors import Forbidden, InvalidRequest, ServiceError
from netpolicy.choices import ID_KINDS, PoolKind, SegmentKind
from netpolicy.models import LIVE, Pool, Segment
from tenants.access import is_site_admin
from tenants.network import network_changed

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
            raise InvalidRequest(
                f"Pool {pool.name} overlaps an existing {pool.kind} pool (or its name is taken)."
            ) from None
        record("pool.create", pool, after=snapshot(pool), tenant=pool.tenant_id)
        if pool.kind == PoolKind.CGNAT:
            network_changed()  # every tenant's CGNAT /32 comes from the site's CGNAT pool
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
        raise InvalidRequest(
            f"min_prefix_length (/{pool.min_prefix_length}) would forbid tenants the pool's own "
            f"default (/{pool.prefix_length}).",
            "min_prefix_length",
        )


class _Addresses(Func):
    """Number of addresses of a cidr column (2 ** host bits), as numeric (IPv6 overflows bigint)."""

    template = (
        "power(2::numeric, (CASE family(%(expressions)s) WHEN 4 THEN 32 ELSE 128 END) - masklen(%(expressions)s))"
    )
    output_field = DecimalField()


def with_usage(pools):
    """Pools annotated with what pool_usage needs, so a list of them costs one query."""
    live = Segment.objects.filter(LIVE).order_by()
    ids = live.filter(id_pool=OuterRef("pk")).values("id_pool").annotate(n=Count("pk")).values("n")
    addresses = (live.filter(prefix_pool=OuterRef("pk")).values("prefix_pool")
                 .annotate(n=Sum(_Addresses("subnet"))).values("n"))  # fmt: skip
    used = Coalesce(Subquery(addresses), Value(0), output_field=DecimalField())
    return pools.annotate(used_ids=Coalesce(Subquery(ids), 0), used_addresses=used)


def pool_usage(pool: Pool) -> dict:
    """Used and free counts (ids, or default-length subnets' worth of addresses)."""
    if pool.is_id_pool:
        used = getattr(pool, "used_ids", None)
        if used is None:
            used = Segment.objects.filter(LIVE, id_pool=pool).count()
        return {"size": pool.size, "used": used, "free": pool.size - used}
    net = ipaddress.ip_network(pool.cidr)
    addresses = getattr(pool, "used_addresses", None)
    if addresses is None:
        addresses = sum(
            ipaddress.ip_network(s).num_addresses
            for s in Segment.objects.filter(LIVE, prefix_pool=pool).values_list("subnet", flat=True)
        )
    addresses = int(addresses)
    block = 2 ** (net.max_prefixlen - pool.prefix_length)
    used = -(-addresses // block)
    return {"size": pool.size, "used": used, "free": max(pool.size - used, 0)}


# ---------------------------------------------------------------- next-free search


def free_ids(pool: Pool, column: str) -> Iterator[int]:
    """The pool's ids no live segment uses, lowest first (lazily: a VNI pool holds 16 million)."""
    used = Segment.objects.filter(LIVE, id_pool=pool).order_by(column).values_list(column, flat=True)
    candidate = pool.first
    for value in used.iterator():
        while candidate < min(value, pool.last + 1):
            yield candidate
            candidate += 1
        candidate = max(candidate, value + 1)
    while candidate <= pool.last:
        yield candidate
        candidate += 1


def next_free_id(pool: Pool, column: str) -> int:
    """Lowest id of the pool no live segment uses."""
    for candidate in free_ids(pool, column):
        return candidate
    raise PoolExhausted(f"Pool {pool.name} is exhausted: all {pool.size} ids are in use.")


def _used_ranges(pool: Pool) -> list[tuple[int, int]]:
    """(first, last) address, as integers, of the routing domain's live subnets inside the pool."""
    net = ipaddress.ip_network(pool.cidr)
    subnets = Segment.objects.filter(LIVE, routing_domain=pool.routing_domain, subnet__net_overlaps=pool.cidr)
    ranges = []
    for text in subnets.values_list("subnet", flat=True):
        used = ipaddress.ip_network(text)
        if used.version == net.version:
            ranges.append((int(used.network_address), int(used.broadcast_address)))
    return sorted(ranges)


def _prefix_length(pool: Pool, prefix_length: int | None) -> int:
    net = ipaddress.ip_network(pool.cidr)
    plen = prefix_length or pool.prefix_length
    if not net.prefixlen <= plen <= net.max_prefixlen:
        raise InvalidRequest(f"Prefix length /{plen} does not fit pool {pool.name} ({net}).", "prefix_length")
    return plen


def free_subnets(pool: Pool, prefix_length: int | None = None) -> Iterator:
    """Aligned blocks of the wanted length that overlap no live subnet, lowest first (lazily)."""
    net = ipaddress.ip_network(pool.cidr)
    plen = _prefix_length(pool, prefix_length)
    size = 2 ** (net.max_prefixlen - plen)
    candidate, end = int(net.network_address), int(net.broadcast_address)
    for lo, hi in _used_ranges(pool):
        while candidate + size - 1 < lo and candidate + size - 1 <= end:
            yield ipaddress.ip_network((candidate, plen))
            candidate += size
        if hi >= candidate:
            candidate = -(-(hi + 1) // size) * size  # align up past the used block
    while candidate + size - 1 <= end:
        yield ipaddress.ip_network((candidate, plen))
        candidate += size


def next_free_subnet(pool: Pool, prefix_length: int | None = None):
    """First aligned block of the wanted length that overlaps no live subnet."""
    for candidate in free_subnets(pool, prefix_length):
        return candidate
    plen = _prefix_length(pool, prefix_length)
    raise PoolExhausted(f"Pool {pool.name} is exhausted: no free /{plen} left in {pool.cidr}.")
