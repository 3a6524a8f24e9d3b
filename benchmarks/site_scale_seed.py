"""Bulk seeding of a site for benchmarks/site_scale.py: tenants with their default policy plus ten
rules, one overlay segment and one cluster each; node pools and nodes; a million audit events.

Rows go in with bulk INSERTs (the services would take hours at this size) and use only fields
that the baseline commit has too, so the same seeding runs against either code base:
`python benchmarks/site_scale_seed.py --tenants 10000 --nodes 2000 --pools 10` in a checkout,
with ENCLAVE_DB_NAME naming the (throwaway) database.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path.cwd()))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

BATCH = 5000
PASSWORD = "bench-password-1234"  # noqa: S105 - throwaway benchmark users on 127.0.0.1


def node_credential(name: str) -> str:
    return f"encn_bench_{name}"


def api_token(user: str) -> str:
    return f"enc_bench_{user}"


def _site_catalogue():
    """Seeded services and site groups (with addresses), the two site policies, benchmark services."""
    from netpolicy import policy
    from netpolicy.models import Group, Service

    policy.ensure_site_defaults()
    Group.objects.filter(tenant__isnull=True, name="nfs_servers").update(cidrs=["10.255.0.10/32", "fd00:ff::10/128"])
    Group.objects.filter(tenant__isnull=True, name="dns_servers").update(cidrs=["10.255.0.53/32"])
    extra = {"web": "8080,8443-8444", "jupyter": "8888-8899", "mpi": "20000-20999"}
    for name, ports in extra.items():
        Service.objects.get_or_create(name=name, defaults={"protocol": "tcp", "ports": ports})
    Service.objects.get_or_create(name="syslog", defaults={"protocol": "udp", "ports": "514"})
    return {s.name: s for s in Service.objects.all()}, {g.name: g for g in Group.objects.filter(tenant__isnull=True)}


def _tenants(count: int):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from tenants.models import Membership, Quota, Tenant
    from users import models as user_models
    from users.models import APIToken, PosixAccount, hash_token

    user_model = get_user_model()
    password = make_password(PASSWORD)
    admin = user_model.objects.create(username="bench-admin", is_staff=True, password=password)
    owners = user_model.objects.bulk_create(
        [user_model(username=f"pi-{i}", password=password) for i in range(count)], batch_size=BATCH
    )
    tenants = Tenant.objects.bulk_create([Tenant(slug=f"lab-{i}", name=f"Lab {i}") for i in range(count)],
                                         batch_size=BATCH)  # fmt: skip
    Quota.objects.bulk_create([Quota(tenant=t, max_segments=10) for t in tenants], batch_size=BATCH)
    Membership.objects.bulk_create([Membership(tenant=t, user=u, role="owner") for t, u in zip(tenants, owners,
                                                                                              strict=True)],
                                   batch_size=BATCH)  # fmt: skip
    PosixAccount.objects.bulk_create([PosixAccount(user=u, uid=100000 + i) for i, u in enumerate(owners)],
                                     batch_size=BATCH)  # fmt: skip
    for user in (admin, owners[0]):
        raw = api_token(user.username)
        # A write token stamped with its user's password, as users.services.create_token makes them (an
        # unstamped token is refused), but with a plaintext the harness can derive.
        # The baseline's tokens had neither scope nor stamp.
        current = {"scope": user_models.TokenScope.WRITE, "stamp": user_models.credential_stamp(user)} if hasattr(
            user_models, "credential_stamp") else {}  # fmt: skip
        APIToken.objects.create(user=user, name="bench", token_hash=hash_token(raw), hint=raw[:9], **current)
    return tenants, owners


def _net(i: int) -> str:
    return f"10.{(i >> 8) & 255}.{i & 255}"


def _tenant_rows(tenants, services, site_groups):
    """Each tenant: groups, the default isolation policy (4 rules) and a policy of ten rules."""
    from netpolicy.models import FirewallPolicy, FirewallRule, Group

    groups = []
    for i, t in enumerate(tenants):
        v4 = _net(i)
        base = 0x10000000 + (i << 4)
        partner = f"{base >> 24}.{(base >> 16) & 255}.{(base >> 8) & 255}.{base & 255}/28"
        groups += [Group(tenant=t, name="all", all_segments=True), Group(tenant=t, name="login", role="login",
                                                                            cidrs=[f"{v4}.10/32"]),
                   Group(tenant=t, name="worker", cidrs=[f"{v4}.32/27"]),
                   Group(tenant=t, name="manager", cidrs=[f"{v4}.11/32"]),
                   Group(tenant=t, name="partner", cidrs=[partner, f"2001:db8:{i:x}::/48"])]  # fmt: skip
    groups = Group.objects.bulk_create(groups, batch_size=BATCH)
    policies = FirewallPolicy.objects.bulk_create(
        [FirewallPolicy(tenant=t, name=name, category=category, sequence=sequence)
         for t in tenants for name, category, sequence in (("isolation", "application", 100),
                                                           ("custom", "environment", 50))],
        batch_size=BATCH)  # fmt: skip
    specs, rules = [], []
    for i, _tenant in enumerate(tenants):
        g = {grp.name: grp for grp in groups[5 * i : 5 * i + 5]}
        isolation, custom = policies[2 * i], policies[2 * i + 1]
        for policy, name, seq, action, direction, src, dst, svc, logged, enabled in (
            (isolation, "intra_tenant", 10, "allow", "in-out", ["all"], ["all"], [], False, True),
            (isolation, "ssh_to_login", 20, "allow", "in", [], ["login"], ["ssh"], False, True),
            (isolation, "tenant_to_nfs", 30, "allow", "out", ["all"], ["S:nfs_servers"], ["nfs_tcp", "nfs_udp"],
             False, True),
            (isolation, "tenant_to_dns", 40, "allow", "out", ["all"], ["S:dns_servers"], ["dns_udp", "dns_tcp"],
             False, True),
            (custom, "slurm", 10, "allow", "in-out", ["worker"], ["manager"], ["slurm"], False, True),
            (custom, "mpi", 20, "allow", "in-out", ["worker"], ["worker"], ["mpi"], False, True),
            (custom, "partner_web", 30, "allow", "in", ["partner"], ["login"], ["web"], False, True),
            (custom, "partner_jup", 40, "allow", "in", ["partner"], ["login"], ["jupyter"], True, True),
            (custom, "no_syslog", 50, "drop", "in", [], ["manager"], ["syslog"], False, True),
            (custom, "partner_ssh", 60, "allow", "in-out", ["partner"], ["worker"], ["ssh"], False, True),
            (custom, "reject_web", 70, "reject", "in", [], ["worker"], ["web"], False, True),
            (custom, "out_web", 80, "allow", "out", ["worker"], ["partner"], ["web"], False, True),
            (custom, "dns_tcp", 90, "allow", "out", ["login"], ["partner"], ["dns_tcp"], False, True),
            (custom, "off", 100, "drop", "in-out", [], [], [], False, False),
        ):  # fmt: skip
            rules.append(FirewallRule(policy=policy, name=name, sequence=seq, action=action, direction=direction,
                                      logged=logged, enabled=enabled))  # fmt: skip
            specs.append((_pick(src, g, site_groups), _pick(dst, g, site_groups), [services[s] for s in svc]))
    rules = FirewallRule.objects.bulk_create(rules, batch_size=BATCH)
    for field, index in (("sources", 0), ("destinations", 1), ("services", 2)):
        through = getattr(FirewallRule, field).through
        target = "service" if field == "services" else "group"
        links = [through(firewallrule=r, **{target: obj}) for r, spec in zip(rules, specs, strict=True)
                 for obj in spec[index]]  # fmt: skip
        through.objects.bulk_create(links, batch_size=BATCH)
    return len(rules)


def _pick(names, groups, site_groups) -> list:
    return [site_groups[n[2:]] if n.startswith("S:") else groups[n] for n in names]


def _nodes(pool_count: int, node_count: int):
    from agents.models import Node, NodePool, PoolSubnet
    from users.models import hash_token

    pools = NodePool.objects.bulk_create([NodePool(name=f"rack-{p}", multicast_group=f"239.1.1.{p + 1}")
                                          for p in range(pool_count)])  # fmt: skip
    PoolSubnet.objects.bulk_create([PoolSubnet(pool=p, cidr=f"172.{16 + n}.0.0/16", dstport=4789)
                                    for n, p in enumerate(pools)])  # fmt: skip
    nodes = []
    for k in range(node_count):
        pool = pools[k % pool_count]
        p = k % pool_count
        name = f"n{k:05d}"
        address = f"172.{16 + p}.{(k >> 8) & 255}.{k & 255}"
        nodes.append(Node(name=name, pool=pool, address=address,
                          interfaces=[{"name": "em1", "address": f"{address}/16"}]))  # fmt: skip
    on_node = any(f.name == "credential_hash" for f in Node._meta.fields)  # the baseline's single credential
    if on_node:
        for node in nodes:
            node.credential_hash = hash_token(node_credential(node.name))
    Node.objects.bulk_create(nodes, batch_size=BATCH)
    if not on_node:  # NodeCredential rows, expiring like the service's
        from django.utils import timezone

        from agents.models import NodeCredential

        expires = timezone.now() + datetime.timedelta(days=30)
        NodeCredential.objects.bulk_create([
            NodeCredential(node=n, credential_hash=hash_token(node_credential(n.name)),
                           hint=node_credential(n.name)[:12], expires_at=expires)
            for n in nodes], batch_size=BATCH)  # fmt: skip
    return pools


def _segments_and_clusters(tenants, owners, pools):
    from agents.models import SegmentPool
    from netpolicy.models import Pool, Segment
    from tenants.models import VirtualCluster

    vnis = Pool.objects.create(name="bench-vnis", kind="vni", first=100000, last=199999)
    v4 = Pool.objects.create(name="bench-v4", kind="ipv4", cidr="10.0.0.0/8", default_prefix_length=24)
    Pool.objects.create(name="bench-vlans", kind="vlan", first=1, last=4094)
    segments = Segment.objects.bulk_create([
        Segment(tenant=t, name="uvn", kind="overlay", id_pool=vnis, vni=100000 + i, prefix_pool=v4,
                subnet=f"{_net(i)}.0/24", gateway=f"{_net(i)}.1", state="approved")
        for i, t in enumerate(tenants)
    ], batch_size=BATCH)  # fmt: skip
    links = [SegmentPool(segment=s, pool=pools[i % len(pools)]) for i, s in enumerate(segments)]
    SegmentPool.objects.bulk_create(links, batch_size=BATCH)
    lease = datetime.date.today() + datetime.timedelta(days=90)
    states = ("submitted", "endorsed", "approved", "ready", "draft")
    VirtualCluster.objects.bulk_create([
        VirtualCluster(tenant=t, name="mpi", workload_class="parallel-distributed", worker_count=4, vcpus_per_node=16,
                       memory_gb_per_node=64, lease_end=lease, justification="benchmark", requested_by=u,
                       state=states[i % len(states)])
        for i, (t, u) in enumerate(zip(tenants, owners, strict=True))
    ], batch_size=BATCH)  # fmt: skip


EVENTS_SQL_BASELINE = (
    "INSERT INTO audit_auditevent (created, actor_kind, actor_label, tenant_id, action, object_type,"
    " object_id, object_repr, after, message, request_id)"
    " SELECT now() - make_interval(secs => %s - g), 'user', 'pi-' || (g %% %s), %s + (g %% %s),"
    " (ARRAY['cluster.create','cluster.approve','firewall_rule.update','segment.create'])[1 + g %% 4],"
    " 'tenants.virtualcluster', (g %% 100000)::text, 'lab-' || (g %% %s) || '/mpi',"
    " jsonb_build_object('n', g), '', md5(g::text) FROM generate_series(1, %s) AS g"
)
EVENTS_SQL = EVENTS_SQL_BASELINE.replace("request_id)", "request_id, client_request_id)").replace(
    "md5(g::text) FROM", "md5(g::text), '' FROM"
)


def audit_events(count: int) -> None:
    """A million events in one INSERT ... SELECT (the append-only trigger allows inserts)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT min(id), count(*) FROM tenants_tenant")
        first_tenant, tenants = cursor.fetchone()
        cursor.execute(EVENTS_SQL if _has_client_id() else EVENTS_SQL_BASELINE,
                       [count, tenants, first_tenant, tenants, tenants, count])  # fmt: skip


def _has_client_id() -> bool:
    """Newer code records the client's own request id too (a column the baseline lacks)."""
    from audit.models import AuditEvent

    return any(f.name == "client_request_id" for f in AuditEvent._meta.fields)


def seed(tenant_count: int, node_count: int, pool_count: int, events: int) -> dict:
    """Everything, timed; returns what the benchmark needs to know."""
    from audit.context import acting_as, system_actor

    timings = {}
    start = time.perf_counter()
    from django.db import transaction

    with acting_as(system_actor("site-scale seed")), transaction.atomic():
        services, site_groups = _site_catalogue()
        tenants, owners = _tenants(tenant_count)
        rules = _tenant_rows(tenants, services, site_groups)
        pools = _nodes(pool_count, node_count)
        _segments_and_clusters(tenants, owners, pools)
    timings["seed_s"] = time.perf_counter() - start
    start = time.perf_counter()
    audit_events(events)
    timings["audit_seed_s"] = time.perf_counter() - start
    return {"tenants": tenant_count, "rules": rules, "nodes": node_count, "pools": pool_count, "events": events,
            "first_tenant": tenants[0].pk, **timings}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tenants", type=int, default=10_000)
    parser.add_argument("--nodes", type=int, default=2_000)
    parser.add_argument("--pools", type=int, default=10)
    parser.add_argument("--events", type=int, default=1_000_000)
    args = parser.parse_args()
    import django

    django.setup()
    print(json.dumps(seed(args.tenants, args.nodes, args.pools, args.events)))


if __name__ == "__main__":
    main()
