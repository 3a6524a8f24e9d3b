"""Compile nodes' desired state once per change and store it; serving it then compiles nothing.

Three stored parts make a node's document (agents.desired): each tenant's part per pool
(TenantPart: its entry and its nftables chains and set elements), the pool's shared part
assembled from them (PoolDocument) and the node's own part (Node.desired_node). A change of one
tenant recompiles that tenant's parts, re-assembles its pools by joining stored text, and bumps
the generation of exactly the nodes whose document changed, in one UPDATE per pool. A change of a
site object (refresh_site) recompiles only the parts whose site inputs it changed (each part keeps
the digest of what it read from the site: nft.site_inputs) and re-assembles every pool.
"""

import logging
from collections import defaultdict

from django.db import connection, transaction
from django.db.models import CharField, F, Func, TextField, Value
from django.db.models.functions import Concat
from django.utils import timezone

from agents import desired, longpoll, sources
from agents.models import Node, NodePool, PoolDocument, TenantPart
from core.lookups import any_of
from netpolicy import propagation
from netpolicy.compiler import nft
from netpolicy.models import Segment, SiteSettings
from tenants.models import Tenant

LOCK_SPACE = 0x656E63  # "enc": pg_advisory_xact_lock(LOCK_SPACE, bucket)
BUCKETS = 64  # tenants hash into this many locks (PostgreSQL's lock table is small)
CHUNK = 1000  # tenants compiled per batch in a site-wide refresh (bounded memory)
log = logging.getLogger(__name__)


class _Sha256Hex(Func):
    """PostgreSQL's sha256() of text as hex, equal to desired.node_digest()."""

    template = "encode(sha256(convert_to(%(expressions)s, 'UTF8')), 'hex')"
    output_field = CharField()


# ---------------------------------------------------------------- tenants' parts


def _lock(tenant_ids) -> None:
    """Serialize compiles of the same tenants, so an older read never overwrites a newer part."""
    buckets = sorted({t % BUCKETS for t in tenant_ids})
    with connection.cursor() as cursor:
        for bucket in buckets:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_SPACE, bucket])


def _compile(tenant_ids: list[int]) -> dict[tuple[int, int], tuple[dict, dict, list, str]]:
    """{(pool, tenant): (entry, nft part, site refs, site digest)} for these tenants' placements on node pools."""
    placed = sources.placements(tenant_ids)
    on_pools = sorted({tenant for _, tenant in placed})
    if not on_pools:
        return {}
    parts = sources.nft_parts(on_pools)
    uids, base = sources.member_uids(on_pools), sources.cgnat_base()
    extras = sources.entry_extras(placed)
    compiled = {}
    for (pool, tenant), vni in placed.items():
        part, refs, site_digest = parts[tenant]
        entry = desired.tenant_entry(tenant, vni, uids.get(tenant, ()), base) | extras.get((pool, tenant), {})
        compiled[pool, tenant] = (entry, part.to_dict(), list(refs), site_digest)
    return compiled


def _store(tenant_ids: list[int], compiled: dict) -> set[int]:
    """Write the tenants' parts that changed, drop the ones gone; return the pools touched."""
    stored = {(p.pool_id, p.tenant_id): p for p in TenantPart.objects.filter(any_of("tenant_id", tenant_ids))
              .only("pk", "pool_id", "tenant_id", "digest", "site_digest")}  # fmt: skip
    touched, fresh = set(), []
    for key, (entry, nft_part, refs, site_digest) in compiled.items():
        digest, part = desired.part_digest(entry, nft_part), stored.pop(key, None)
        row = {"entry": entry, "nft": nft_part, "digest": digest, "site_refs": refs, "site_digest": site_digest}
        if part is None:
            fresh.append(TenantPart(pool_id=key[0], tenant_id=key[1], **row))
        elif part.digest != digest:
            TenantPart.objects.filter(pk=part.pk).update(**row)
        else:
            if part.site_digest != site_digest:  # the same text, read from a changed site: remember that
                TenantPart.objects.filter(pk=part.pk).update(site_refs=refs, site_digest=site_digest)
            continue
        touched.add(key[0])
    TenantPart.objects.bulk_create(fresh, batch_size=500)
    if stored:
        TenantPart.objects.filter(any_of("pk", [p.pk for p in stored.values()])).delete()
        touched |= {pool for pool, _ in stored}
    return touched


def _compile_tenants(tenant_ids: list[int]) -> tuple[set[int], dict[int, int]]:
    """Recompile and store the tenants' parts (under their locks); the pools touched and the
    network generations compiled."""
    with transaction.atomic():
        _lock(tenant_ids)
        propagation.site_generation(lock=True)  # no site change commits until these parts are stored
        # Generations first: intent committed after this read is compiled too, and stays dirty.
        generations = dict(Tenant.objects.filter(any_of("pk", tenant_ids)).values_list("pk", "network_generation"))
        segments = list(sources.overlay_segments(tenant_ids).values_list("pk", "generation"))
        touched = _store(tenant_ids, _compile(tenant_ids))
    _mark_segments(segments)
    return touched, generations


def _mark_segments(segments) -> None:
    """Overlay segments on node pools are observed once their nodes' documents are compiled."""
    by_generation = defaultdict(list)
    for pk, generation in segments:
        by_generation[generation].append(pk)
    for generation, pks in by_generation.items():
        behind = Segment.objects.filter(any_of("pk", pks), observed_generation__lt=generation)
        behind.update(observed_generation=generation)


def _mark_tenants(generations: dict[int, int]) -> None:
    by_generation = defaultdict(list)
    for pk, generation in generations.items():
        by_generation[generation].append(pk)
    for generation, pks in by_generation.items():
        Tenant.objects.filter(any_of("pk", pks), network_observed_generation__lt=generation).update(
            network_observed_generation=generation
        )


# ---------------------------------------------------------------- pools and nodes


def assemble_pool(pool_id: int, site: sources.SiteShare) -> list[int]:
    """Re-assemble a pool's shared part from its stored tenant parts; bump the nodes it changed."""
    with transaction.atomic():
        document = PoolDocument.objects.select_for_update().filter(pool_id=pool_id).first()
        if propagation.site_generation() != site.generation:  # a site change committed since `site` was read
            site = sources.site_share()
        rows = list(TenantPart.objects.filter(pool_id=pool_id).values_list("entry", "nft"))
        parts = [nft.TenantPart.from_dict(n) for _, n in rows]
        tenants, ruleset = desired.pool_parts([e for e, _ in rows], site.part, parts)
        schema = pool_schema(pool_id)
        digest = desired.pool_digest(tenants, ruleset, schema)
        if document is not None and document.digest == digest:
            return []
        PoolDocument.objects.update_or_create(
            pool_id=pool_id, defaults={"schema": schema, "tenants": tenants, "nftables": ruleset, "digest": digest}
        )
        return bump(pool_id, digest)


def pool_schema(pool_id: int) -> int:
    """The schema the pool's document is written in: the newest its nodes holding a credential all read."""
    live = Node.objects.filter(pool_id=pool_id, credentials__expires_at__gt=timezone.now()).distinct()
    return desired.pool_schema(live.values_list("wire_reads", flat=True))


def schema_moved(pool_id: int) -> bool:
    """Whether the pool's document is no longer in the schema its nodes call for (a node joined or upgraded)."""
    stored = PoolDocument.objects.filter(pool_id=pool_id).values_list("schema", flat=True).first()
    return stored is not None and stored != pool_schema(pool_id)


def bump(pool_id: int, pool_digest: str, node_ids=None) -> list[int]:
    """Give a new generation to the pool's nodes whose document changed; wake them after commit."""
    want = _Sha256Hex(Concat(F("desired_node"), Value(pool_digest), output_field=TextField()))
    nodes = Node.objects.filter(pool_id=pool_id).exclude(desired_node="")
    if node_ids is not None:
        nodes = nodes.filter(pk__in=node_ids)
    stale = list(nodes.annotate(want=want).exclude(desired_digest=F("want")).values_list("pk", flat=True))
    if stale:
        Node.objects.filter(pk__in=stale).update(desired_digest=want, desired_generation=F("desired_generation") + 1)
        transaction.on_commit(lambda: longpoll.wake(stale), robust=True)
    return stale


def store_node_parts(pool: NodePool, node_ids=None) -> list[int]:
    """Recompute the nodes' own parts (interfaces, underlays) and bump those whose document changed."""
    subnets = list(pool.subnets.values_list("cidr", "dstport"))
    nodes = Node.objects.filter(pool=pool)
    if node_ids is not None:
        nodes = nodes.filter(pk__in=node_ids)
    for node in nodes.only("pk", "name", "address", "interfaces", "ib_ports", "desired_node").order_by("pk"):
        try:
            part = desired.node_part(node, subnets, pool.multicast_group)
        except Exception:  # one node's bad stored data must not keep its pool's other nodes stale
            log.exception("desired state of node %s could not be computed", node.name)
            continue
        if part != node.desired_node:
            Node.objects.filter(pk=node.pk).update(desired_node=part)
    document = PoolDocument.objects.filter(pool=pool).only("digest").first()
    return bump(pool.pk, document.digest, node_ids) if document else []


def ensure_pool_document(pool: NodePool) -> None:
    """A new pool holds no tenants yet: its shared part is empty, and servable at once."""
    tenants, ruleset = desired.EMPTY_TENANTS, desired.EMPTY_NFTABLES
    schema = desired.pool_schema([])  # no node reports yet
    PoolDocument.objects.get_or_create(pool=pool, defaults={
        "schema": schema, "tenants": tenants, "nftables": ruleset,
        "digest": desired.pool_digest(tenants, ruleset, schema)})  # fmt: skip


# ---------------------------------------------------------------- the entry point


def refresh(tenant_ids=None) -> dict:
    """Recompile these tenants' parts (None: every tenant and pool), re-assemble the pools they
    touched, bump and wake the nodes whose document changed, mark the tenants observed."""
    if tenant_ids is None:
        return _refresh_all()
    ids = sorted(set(tenant_ids))
    touched, generations = _compile_tenants(ids)
    site = sources.site_share() if touched else None
    bumped = [n for pool in sorted(touched) for n in assemble_pool(pool, site)]
    _mark_tenants(generations)
    return {"tenants": len(ids), "pools": len(touched), "nodes": len(bumped)}


def refresh_site() -> dict:
    """After a site object's change: recompile only the tenant parts whose site inputs it changed (most
    changes: none), re-assemble every pool around the new site part, mark the site observed."""
    site = sources.site_share()
    stored = TenantPart.objects.values_list("tenant_id", "site_refs", "site_digest")
    stale = sorted({tenant for tenant, refs, digest in stored if nft.site_inputs(site.ir, refs) != digest})
    return _compile_and_assemble(stale, site) | {"tenants": len(stale)}


def _refresh_all() -> dict:
    """Every tenant's parts and every pool (the hourly safety net, and changes every part reads)."""
    site = sources.site_share()
    all_ids = list(Tenant.objects.order_by("pk").values_list("pk", flat=True))
    return _compile_and_assemble(all_ids, site) | {"tenants": len(all_ids)}


def _compile_and_assemble(tenant_ids: list[int], site: sources.SiteShare) -> dict:
    """Recompile these tenants in chunks (bounded memory), re-assemble every pool, mark what was done."""
    generations: dict[int, int] = {}
    for start in range(0, len(tenant_ids), CHUNK):
        _, chunk_generations = _compile_tenants(tenant_ids[start : start + CHUNK])
        generations |= chunk_generations
    pools = list(NodePool.objects.values_list("pk", flat=True))
    bumped = [n for pool in pools for n in assemble_pool(pool, site)]
    _mark_tenants(generations)
    SiteSettings.objects.filter(pk=1, network_observed_generation__lt=site.generation).update(
        network_observed_generation=site.generation
    )
    return {"pools": len(pools), "nodes": len(bumped)}
