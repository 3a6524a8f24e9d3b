"""Node pools, enrolment, desired-state generations and observed state; all audited."""

import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from agents import credentials, refresh
from agents.choices import NodeStatus
from agents.models import JoinToken, Node, NodePool, PoolSubnet
from audit.services import record, snapshot
from portal.errors import Conflict, InvalidRequest, NotFound

SILENT_AFTER = datetime.timedelta(seconds=90)  # three missed long-polls


def create_pool(name: str, description: str = "", multicast_group: str = "239.1.1.1") -> NodePool:
    with transaction.atomic():
        if NodePool.objects.filter(name=name).exists():
            raise InvalidRequest(f"A node pool named '{name}' already exists.", field="name")
        pool = NodePool.objects.create(name=name, description=description, multicast_group=multicast_group)
        refresh.ensure_pool_document(pool)
        record("nodepool.create", pool, after=snapshot(pool))
    return pool


def add_subnet(pool: NodePool, cidr: str, dstport: int) -> PoolSubnet:
    """Declare an underlay subnet of interest with its own VXLAN UDP port."""
    with transaction.atomic():
        try:
            with transaction.atomic():
                subnet = PoolSubnet.objects.create(pool=pool, cidr=cidr, dstport=dstport)
        except IntegrityError:
            raise InvalidRequest(f"Pool {pool} already uses {cidr} or udp/{dstport}.", field="dstport") from None
        record("poolsubnet.create", subnet, after=snapshot(subnet))
        refresh.store_node_parts(pool)  # nodes inside the new subnet get VXLANs on it
    return subnet


def create_join_token(pool: NodePool, node_name: str = "", hours: int = 24) -> tuple[JoinToken, str]:
    """Create a one-time join token; its plaintext is returned once and never stored."""
    raw, hashed = credentials.new_secret(credentials.JOIN_PREFIX)
    with transaction.atomic():
        token = JoinToken.objects.create(
            pool=pool, node_name=node_name, token_hash=hashed, hint=raw[:9],
            expires_at=timezone.now() + datetime.timedelta(hours=hours),
        )  # fmt: skip
        record("jointoken.create", token, after=snapshot(token))
    return token, raw


def join(raw_token: str, hostname: str, capabilities: dict, interfaces=None) -> tuple[Node, str]:
    """Exchange a join token (once) for a credential scoped to one node."""
    now = timezone.now()
    with transaction.atomic():
        token = JoinToken.objects.select_for_update().filter(token_hash=credentials.hash_token(raw_token)).first()
        if token is None or token.used_at is not None or token.expires_at <= now:
            raise NotFound("Unknown, used or expired join token.")
        name = token.node_name or hostname
        node = Node.objects.select_for_update().filter(name=name).first()
        if node is not None and token.node_name != name:
            raise Conflict(f"A node named '{name}' is already enrolled; ask for a token naming it to re-enrol.")
        raw, hashed = credentials.new_secret(credentials.NODE_PREFIX)
        before = snapshot(node) if node else None
        node = node or Node(name=name, pool=token.pool)
        node.credential_hash, node.capabilities, node.enrolled = hashed, capabilities or {}, now
        if interfaces:
            node.interfaces = interfaces
            node.address = node.address or str(interfaces[0]["address"]).split("/")[0]
        node.full_clean(exclude=["credential_hash", "desired_digest", "desired_node"])
        node.save()
        refresh.store_node_parts(node.pool, [node.pk])
        JoinToken.objects.filter(pk=token.pk).update(used_at=now, used_by=node)
        record("node.enrol", node, before=before, after=snapshot(node))
    return node, raw


def record_observed(node: Node, report: dict) -> Node:
    """Store an agent's report; status changes and newly applied generations are audited."""
    ok = not report.get("node_errors") and all(
        t.get("status") == "ready" for t in (report.get("tenants") or {}).values()
    )
    errors = list(report.get("node_errors") or [])
    errors += [f"tenant {tid}: {e}" for tid, t in (report.get("tenants") or {}).items() for e in t.get("errors", [])]
    with transaction.atomic():
        current = Node.objects.select_for_update().get(pk=node.pk)
        before = snapshot(current)
        current.last_report, current.last_seen = report, timezone.now()
        current.last_error = "\n".join(errors)[:4000]
        current.applied_generation = int(report.get("generation") or current.applied_generation)
        current.capabilities = report.get("capabilities") or current.capabilities
        current.status = NodeStatus.READY if ok else NodeStatus.NOT_READY
        current.save()
        if before["status"] != current.status or before["applied_generation"] != current.applied_generation:
            record("node.observed", current, before=_brief(before), after=_brief(snapshot(current)))
    return current


def touch(node: Node) -> None:
    """A long-poll is a heartbeat."""
    Node.objects.filter(pk=node.pk).update(last_seen=timezone.now())


def mark_silent_nodes() -> int:
    """Set NotReady on nodes not heard from for SILENT_AFTER (compare-and-set per node)."""
    cutoff = timezone.now() - SILENT_AFTER
    count = 0
    for node in Node.objects.filter(status=NodeStatus.READY, last_seen__lt=cutoff):
        with transaction.atomic():
            if Node.objects.filter(pk=node.pk, status=NodeStatus.READY).update(
                status=NodeStatus.NOT_READY, last_error=f"silent since {node.last_seen:%Y-%m-%d %H:%M:%S}"
            ):
                node.refresh_from_db()
                record("node.silent", node, before={"status": NodeStatus.READY}, after={"status": node.status})
                count += 1
    return count


def _brief(snap: dict) -> dict:
    return {k: snap[k] for k in ("status", "applied_generation", "desired_generation", "last_error")}


def update_node(node: Node, **fields) -> Node:
    """Admin edits of a node's underlay address and interfaces."""
    with transaction.atomic():
        current = Node.objects.select_for_update().get(pk=node.pk)
        before = snapshot(current)
        for field, value in fields.items():
            setattr(current, field, value)
        current.save()
        record("node.update", current, before=before, after=snapshot(current))
        refresh.store_node_parts(current.pool, [current.pk])
    return current
