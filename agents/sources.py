"""Where nodes' desired state comes from: tenants' overlay segments on node pools, members, firewall."""

import ipaddress
from collections import defaultdict
from dataclasses import dataclass

from agents.desired import CGNAT
from core.lookups import any_of
from netpolicy import propagation
from netpolicy.choices import PoolKind, SegmentKind, SegmentState
from netpolicy.compiler import model as ir
from netpolicy.compiler import nft
from netpolicy.ir import build_site, build_site_isolating
from netpolicy.models import Pool, Segment
from tenants.models import Membership, Tenant
from users.models import PosixAccount

REALIZED = (SegmentState.APPROVED, SegmentState.PROVISIONING, SegmentState.READY)


def overlay_segments(tenant_ids=None):
    """Overlay segments placed on node pools (any state), of these tenants (None: all)."""
    segments = Segment.objects.filter(kind=SegmentKind.OVERLAY, pool_link__isnull=False)
    return segments if tenant_ids is None else segments.filter(any_of("tenant_id", tenant_ids))


def placements(tenant_ids=None) -> dict[tuple[int, int], int]:
    """{(node pool, tenant): VNI} for realized overlay segments (a tenant's first one per pool)."""
    rows = (overlay_segments(tenant_ids).filter(state__in=REALIZED, vni__isnull=False)
            .order_by("tenant_id", "pk").values_list("pool_link__pool_id", "tenant_id", "vni"))  # fmt: skip
    found: dict[tuple[int, int], int] = {}
    for pool_id, tenant_id, vni in rows:
        found.setdefault((pool_id, tenant_id), vni)
    return found


# Apps above agents add keys to a tenant's entry on a pool (fabrics: the tenant's P_Key on the pool's fabric):
# extra(placements) -> {(pool, tenant): {key: value}}; registered from their AppConfig.ready().
_ENTRY_EXTRAS: dict = {}


def register_entry_extra(name: str, extra) -> None:
    _ENTRY_EXTRAS[name] = extra


def entry_extras(placed) -> dict:
    """Every registered app's additions to the tenants' entries on these placements."""
    found: dict = {}
    for extra in list(_ENTRY_EXTRAS.values()):
        for key, values in extra(placed).items():
            found.setdefault(key, {}).update(values)
    return found


def member_uids(tenant_ids) -> dict[int, list[int]]:
    """POSIX UIDs of each tenant's members (ambiguity across tenants is resolved per pool)."""
    users = Membership.objects.filter(any_of("tenant_id", tenant_ids)).values_list("user_id", "tenant_id")
    tenants_of = defaultdict(list)
    for user_id, tenant_id in users:
        tenants_of[user_id].append(tenant_id)
    result: dict[int, list[int]] = defaultdict(list)
    for user_id, uid in PosixAccount.objects.filter(any_of("user_id", tenants_of)).values_list("user_id", "uid"):
        for tenant_id in tenants_of[user_id]:
            result[tenant_id].append(uid)
    return result


def cgnat_base():
    """The site's CGNAT pool (netpolicy, kind cgnat), or the whole 100.64.0.0/10 when none is defined."""
    pool = Pool.objects.filter(kind=PoolKind.CGNAT).order_by("pk").first()
    return ipaddress.ip_network(str(pool.cidr)) if pool else CGNAT


def nft_parts(tenant_ids) -> dict[int, tuple[nft.TenantPart, tuple[str, ...], str]]:
    """Each tenant's compiled share, the site objects its rules name and the digest of what it read from
    the site (nft.site_refs, nft.site_inputs), from the database (only these tenants are read)."""
    # a tenant whose policy does not compile is quarantined (all its traffic rejected), never fatal
    site = build_site_isolating(Tenant.objects.filter(any_of("pk", tenant_ids)).order_by("pk")).site
    parts = {}
    for tenant in site.tenants:
        refs = nft.site_refs(tenant)
        parts[int(tenant.name[1:])] = (nft.tenant_part(site, tenant), refs, nft.site_inputs(site, refs))
    return parts


@dataclass(frozen=True)
class SiteShare:
    """The site's compiled share, and the site generation read before it (refresh.assemble_pool checks it)."""

    generation: int
    ir: ir.Site
    part: nft.SitePart


def site_share() -> SiteShare:
    """The site's share alone (site policies, groups, services)."""
    generation = propagation.site_generation()  # first: a change committed meanwhile makes it look old, never new
    site = build_site(Tenant.objects.none())
    return SiteShare(generation, site, nft.site_part(site))
