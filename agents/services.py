"""Node pools, enrolment, desired-state generations and observed state; all audited."""

import datetime

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from enclave_agent import grammar, wire

from agents import credentials, hotpath, ib_ports, longpoll, refresh
from agents.choices import NodeStatus
from agents.models import JoinToken, Node, NodeCredential, NodePool, PoolSubnet
from audit.services import record, snapshot
from core.errors import Conflict, Forbidden, InvalidRequest, NotFound
from tenants import network

ASSEMBLE_TASK = "agents.tasks.assemble_pool"

SILENT_AFTER = datetime.timedelta(seconds=90)  # three missed long-polls
TOUCH_EVERY = datetime.timedelta(seconds=15)  # a write per request would be one per poll and report
NODE_EDITABLE = ("address", "interfaces")
TENANT_ERRORS_KEPT = 20  # per tenant; the whole report stays in last_report


def _checked(check, value, field: str, *args):
    """Apply an enclave_agent.grammar check; a failure is the caller's 400 on that field."""
    try:
        return check(value, *args)
    except (grammar.GrammarError, wire.SchemaError) as exc:
        raise InvalidRequest(str(exc), field=field) from None


def create_pool(name: str, description: str = "", multicast_group: str = "239.1.1.1") -> NodePool:
    group = _checked(grammar.multicast_group, multicast_group, "multicast_group")
    if ":" in group:
        raise InvalidRequest("Use an IPv4 multicast group.", field="multicast_group")
    with transaction.atomic():
        if NodePool.objects.filter(name=name).exists():
            raise InvalidRequest(f"A node pool named '{name}' already exists.", field="name")
        pool = NodePool.objects.create(name=name, description=description, multicast_group=multicast_group)
        refresh.ensure_pool_document(pool)
        record("nodepool.create", pool, after=snapshot(pool))
    return pool


def add_subnet(pool: NodePool, cidr: str, dstport: int) -> PoolSubnet:
    """Declare an underlay subnet of interest with its own VXLAN UDP port."""
    cidr = _checked(grammar.network, cidr, "cidr", "cidr")
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
    if node_name:
        _checked(grammar.node_name, node_name, "node_name")
    raw, hashed = credentials.new_secret(credentials.JOIN_PREFIX)
    with transaction.atomic():
        token = JoinToken.objects.create(
            pool=pool, node_name=node_name, token_hash=hashed, hint=raw[:9],
            expires_at=timezone.now() + datetime.timedelta(hours=hours),
        )  # fmt: skip
        record("jointoken.create", token, after=snapshot(token))
    return token, raw


def _issue(node: Node, now) -> tuple[NodeCredential, str]:
    """A fresh credential for the node, valid for the configured lifetime; audited."""
    raw, hashed = credentials.new_secret(credentials.NODE_PREFIX)
    lifetime = datetime.timedelta(days=settings.AGENT_CREDENTIAL_DAYS)
    cred = NodeCredential.objects.create(node=node, credential_hash=hashed, hint=raw[:12], expires_at=now + lifetime)
    record("node.credential.issue", cred, after=snapshot(cred))
    return cred, raw


def credential_answer(raw: str) -> dict:
    """What the agent gets with a new credential: the secret and when it expires (also in seconds)."""
    cred = NodeCredential.objects.get(credential_hash=credentials.hash_token(raw))
    expires_in = int((cred.expires_at - timezone.now()).total_seconds())
    return {"credential": raw, "expires_at": cred.expires_at, "expires_in": expires_in}


def join(raw_token: str, hostname: str, capabilities: dict, interfaces=None, reads=None) -> tuple[Node, str]:
    """Exchange a join token (once) for a credential scoped to one node."""
    interfaces = _checked(grammar.interfaces, interfaces or [], "interfaces")
    reads = list(_checked(wire.check_reads, reads, "reads")) if reads is not None else []
    hostname = _checked(grammar.node_name, hostname, "hostname")
    if not isinstance(capabilities, dict):
        raise InvalidRequest("Capabilities are an object.", field="capabilities")
    now = timezone.now()
    with transaction.atomic():
        token = JoinToken.objects.select_for_update().filter(token_hash=credentials.hash_token(raw_token)).first()
        if token is None or token.used_at is not None or token.expires_at <= now:
            raise NotFound("Unknown, used or expired join token.")
        name = token.node_name or hostname
        node = Node.objects.select_for_update().filter(name=name).first()
        if node is not None and token.node_name != name:
            raise Conflict(f"A node named '{name}' is already enrolled; ask for a token naming it to re-enrol.")
        before = snapshot(node) if node else None
        node = node or Node(name=name, pool=token.pool)
        node.capabilities, node.enrolled, node.wire_reads = capabilities, now, reads
        if interfaces:
            node.interfaces = interfaces
            node.address = node.address or interfaces[0]["address"].split("/")[0]
        node.full_clean(exclude=["desired_digest", "desired_node"], validate_unique=False)  # the database decides races
        try:
            with transaction.atomic():
                node.save()
        except IntegrityError:  # a concurrent join created the same name first
            raise Conflict(f"A node named '{name}' is already enrolled.") from None
        NodeCredential.objects.filter(node=node).delete()  # re-enrolment replaces the old credential
        refresh.store_node_parts(node.pool, [node.pk])
        JoinToken.objects.filter(pk=token.pk).update(used_at=now, used_by=node)
        record("node.enrol", node, before=before, after=snapshot(node))
        _, raw = _issue(node, now)
        follow_schema(node.pool_id)  # counted once it holds a credential
    return node, raw


def rotate_credential(node: Node, presented: NodeCredential) -> tuple[Node, str]:
    """Swap the presented credential for a new one; the presented one stays valid for the grace period.

    Any other credential of the node is dropped: it is one whose answer the agent never received
    (it rotates again with the old one), or one a thief holds.
    """
    now = timezone.now()
    grace = now + datetime.timedelta(seconds=settings.AGENT_CREDENTIAL_GRACE_SECONDS)
    with transaction.atomic():
        current = Node.objects.select_for_update().get(pk=node.pk)
        old = NodeCredential.objects.filter(pk=presented.pk, node=current, expires_at__gt=now).first()
        if old is None:
            raise Forbidden("This credential was revoked or has expired.")
        NodeCredential.objects.filter(node=current).exclude(pk=old.pk).delete()
        NodeCredential.objects.filter(pk=old.pk).update(expires_at=min(old.expires_at, grace))
        _, raw = _issue(current, now)
    return current, raw


def revoke_credentials(node: Node) -> Node:
    """Revoke every credential of the node at once (site admins); its long-polls end now."""
    with transaction.atomic():
        current = Node.objects.select_for_update().get(pk=node.pk)
        hints = sorted(NodeCredential.objects.filter(node=current).values_list("hint", flat=True))
        NodeCredential.objects.filter(node=current).delete()
        before = _brief(snapshot(current))
        current.status = NodeStatus.NOT_READY
        current.last_error = "credential revoked; re-enrol with a join token naming this node"
        ports = current.ib_ports  # reported by a node that can report no more: a re-enrolled host reports them
        current.ib_ports = []
        current.save(update_fields=["status", "last_error", "ib_ports"])
        record("node.credential.revoke", current, before=before | {"credentials": hints, "ib_ports": ports},
               after=_brief(snapshot(current)) | {"credentials": [], "ib_ports": []})  # fmt: skip
        if ports:  # they leave its tenants' partitions, and a GUID it disputed is free again
            refresh.store_node_parts(current.pool, [current.pk])  # its IPoIB parents go with them
            network.node_ports_changed(current.pool_id)
        node_id = current.pk
        transaction.on_commit(lambda: longpoll.revoked(node_id))
        follow_schema(current.pool_id)  # a node without a credential holds its pool back no longer
    return current


def record_observed(node: Node, report: dict) -> Node:
    """Store an agent's (validated) report; status changes and newly applied generations are audited.

    The node's own errors and each tenant's are stored apart, so each reader is shown only what is theirs.
    """
    tenants = report.get("tenants") or {}
    ok = not report.get("node_errors") and all(t["status"] == "ready" for t in tenants.values())
    with transaction.atomic():
        current = Node.objects.select_for_update().get(pk=node.pk)
        before = snapshot(current)
        current.last_report, current.last_seen = report, timezone.now()
        current.last_error = "\n".join(report.get("node_errors") or [])[:4000]
        current.tenant_errors = _tenant_errors(tenants)
        current.applied_generation = report["generation"]
        current.capabilities = report.get("capabilities") or current.capabilities
        current.status = NodeStatus.READY if ok else NodeStatus.NOT_READY
        ports_changed = "ib_ports" in report and report["ib_ports"] != current.ib_ports
        if ports_changed:
            current.ib_ports = report["ib_ports"]
        disputed = _disputed_ports(current)
        if disputed:  # shown to site admins only, like the node's other errors
            current.last_error = "\n".join(filter(None, [current.last_error, *disputed]))[:4000]
        reads_changed = "reads" in report and report["reads"] != current.wire_reads
        if reads_changed:
            current.wire_reads = report["reads"]
        current.save()
        if reads_changed:  # the contract: the schemas its pool's document may be written in
            record("node.wire_reads", current, before={"wire_reads": before["wire_reads"]},
                   after={"wire_reads": current.wire_reads})  # fmt: skip
            follow_schema(current.pool_id)
        if ports_changed:  # the ports join (or leave) the tenants' InfiniBand partitions
            record(
                "node.ib_ports", current, before={"ib_ports": before["ib_ports"]}, after={"ib_ports": current.ib_ports}
            )
            refresh.store_node_parts(current.pool, [current.pk])  # its IPoIB parents
            network.node_ports_changed(current.pool_id)
        if before["status"] != current.status or before["applied_generation"] != current.applied_generation:
            record("node.observed", current, before=_brief(before), after=_brief(snapshot(current)))
    return current


def _disputed_ports(node: Node) -> list[str]:
    """What the site admins are told of the node's HCA port GUIDs that other nodes report too.

    Such a port joins no partition (fabrics.desired.node_ports) until one of them stops reporting it: a
    node's root could otherwise take another node's port into its own tenants' partition.
    """
    return [f"InfiniBand port GUID {guid} is also reported by node {', '.join(names)}: it is in no partition "
            "until only one node reports it." for guid, names in ib_ports.also_reported(node).items()]  # fmt: skip


def follow_schema(pool_id: int) -> None:
    """After a node of the pool joined or changed what it reads: the worker re-writes the pool's document
    if its schema moves (the newest every node reads), so an old node is not left refused for long."""
    if refresh.schema_moved(pool_id):
        transaction.on_commit(lambda: current_app.send_task(ASSEMBLE_TASK, args=[pool_id]), robust=True)


def _tenant_errors(tenants: dict) -> dict[str, list[str]]:
    """Each failing tenant's errors under its id (no query: names are the reader's business)."""
    return {str(tid): list(t["errors"])[:TENANT_ERRORS_KEPT] for tid, t in tenants.items() if t.get("errors")}


def touch(node: Node) -> None:
    """A long-poll is a heartbeat; one heard from within TOUCH_EVERY is not written again."""
    now = timezone.now()
    if node.last_seen is None or now - node.last_seen >= TOUCH_EVERY:
        hotpath.seen(node.pk, now)  # most renewals of a 30 s poll write it: no ORM compile each time


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
    return {k: snap[k] for k in ("status", "applied_generation", "desired_generation", "last_error", "tenant_errors")}


def update_node(node: Node, **fields) -> Node:
    """Admin edits of a node's underlay address and interfaces (checked against the agent's grammar)."""
    unknown = sorted(set(fields) - set(NODE_EDITABLE))
    if unknown:
        raise InvalidRequest(f"Only {', '.join(NODE_EDITABLE)} can be changed.", field=unknown[0])
    if "interfaces" in fields:
        fields["interfaces"] = _checked(grammar.interfaces, fields["interfaces"], "interfaces")
    if fields.get("address") not in (None, ""):
        fields["address"] = _checked(grammar.address, fields["address"], "address", "address")
    with transaction.atomic():
        current = Node.objects.select_for_update().get(pk=node.pk)
        before = snapshot(current)
        for field, value in fields.items():
            setattr(current, field, value)
        current.save()
        record("node.update", current, before=before, after=snapshot(current))
        refresh.store_node_parts(current.pool, [current.pk])
    return current
