"""Where a node's desired state comes from: tenants' overlay segments on its pool and their firewall."""

import ipaddress

from agents.desired import CGNAT, TenantNetwork
from netpolicy.choices import PoolKind, SegmentKind, SegmentState
from netpolicy.compiler import nft
from netpolicy.ir import build_site_isolating
from netpolicy.models import Pool, Segment
from tenants.models import Tenant
from users.models import PosixAccount

REALIZED = (SegmentState.APPROVED, SegmentState.PROVISIONING, SegmentState.READY)


def tenant_networks(pool) -> list[TenantNetwork]:
    """Tenants with an approved overlay segment on this pool (their first one carries the VNI)."""
    segments = (
        Segment.objects.filter(node_pool=pool, kind=SegmentKind.OVERLAY, state__in=REALIZED, vni__isnull=False)
        .select_related("tenant")
        .order_by("tenant_id", "pk")
    )
    first = {}
    for segment in segments:
        first.setdefault(segment.tenant_id, segment)
    uids = _member_uids(first.keys())
    return [
        TenantNetwork(t_id, seg.tenant.slug, seg.vni, str(seg.subnet), tuple(uids.get(t_id, ())))
        for t_id, seg in first.items()
    ]


def _member_uids(tenant_ids) -> dict[int, list[int]]:
    """POSIX UIDs of each tenant's members (a user in two tenants on one pool is placed in neither)."""
    accounts = PosixAccount.objects.filter(user__memberships__tenant__in=list(tenant_ids)).values_list(
        "uid", "user__memberships__tenant"
    )
    by_uid: dict[int, set[int]] = {}
    for uid, tenant_id in accounts:
        if tenant_id in tenant_ids:
            by_uid.setdefault(uid, set()).add(tenant_id)
    result: dict[int, list[int]] = {}
    for uid, tenants in by_uid.items():
        if len(tenants) == 1:  # ambiguous sessions must fail closed, not pick a tenant
            result.setdefault(next(iter(tenants)), []).append(uid)
    return result


def cgnat_base():
    """The site's CGNAT pool (netpolicy, kind cgnat), or the whole 100.64.0.0/10 when none is defined."""
    pool = Pool.objects.filter(kind=PoolKind.CGNAT).order_by("pk").first()
    return ipaddress.ip_network(str(pool.cidr)) if pool else CGNAT


def ruleset(pool, networks: list[TenantNetwork]) -> str:
    """The compiled nftables ruleset for the tenants present on a pool's nodes."""
    if not networks:
        return ""
    tenants = Tenant.objects.filter(pk__in=[n.tenant_id for n in networks]).order_by("pk")
    return nft.compile_ruleset(build_site_isolating(tenants).site)  # a broken tenant is quarantined, not fatal
