"""A fabric agent's report: checked whole, stored, judged against the desired partitions, and its consequences.

A partition is realized when every desired full member's table holds its key with the membership bit and no
tenant port holds another tenant's key (or the default key) as a full member. A partition that stops being
realized (an out-of-band edit, a subnet manager that lost it) turns the tenant's Ready clusters Degraded; one
that becomes realized re-queues the tenant's waiting clusters, whose reconcile then finds them Ready.
"""

import re

from django.db import transaction
from django.utils import timezone
from enclave_agent import fabric_wire as wire

from audit.services import record
from core.errors import InvalidRequest
from fabrics import hooks, membership
from fabrics.choices import PartitionState
from fabrics.models import Fabric, PartitionKey
from tenants import realizers
from tenants import services as tenant_services
from tenants.choices import ClusterState
from tenants.models import VirtualCluster

MAX_ERRORS, MAX_ERROR_LENGTH, MAX_SMS = 64, 2000, 64
SURROGATE = re.compile("[\ud800-\udfff]")
REPORT_KEYS = {wire.SCHEMA, wire.READS, wire.GENERATION, wire.APPLIED, wire.ERRORS, wire.PORTS, wire.SM}
SM_KEYS = {"kind", "version", "m_key", "m_key_protect", "sm_key", "foreign_sms"}
WAITING = {ClusterState.PROVISIONING, ClusterState.DEGRADED}


def _int(value, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise wire.FabricError(f"{what}: expected an integer within {low}..{high}")
    return value


def _text(value, limit: int, what: str) -> str:
    """Shown escaped on pages; NUL and lone surrogates would not survive PostgreSQL's text."""
    if not isinstance(value, str) or len(value) > limit or "\x00" in value or SURROGATE.search(value):
        raise wire.FabricError(f"{what}: expected text of at most {limit} characters")
    return value


def _sm(data) -> dict:
    if not isinstance(data, dict) or set(data) - SM_KEYS:
        raise wire.FabricError(f"sm: expected an object with keys among {', '.join(sorted(SM_KEYS))}")
    sm = {"kind": data.get("kind"), "version": _text(data.get("version", ""), 64, "sm version")}
    if sm["kind"] not in wire.KINDS:
        raise wire.FabricError(f"sm kind: expected one of {', '.join(wire.KINDS)}")
    for flag in ("m_key", "sm_key"):
        if not isinstance(data.get(flag, False), bool):
            raise wire.FabricError(f"sm {flag}: expected true or false")
        sm[flag] = data.get(flag, False)
    sm["m_key_protect"] = _int(data.get("m_key_protect", 0), 0, 3, "sm m_key_protect")
    foreign = data.get("foreign_sms", [])
    if not isinstance(foreign, list) or len(foreign) > MAX_SMS:
        raise wire.FabricError(f"sm foreign_sms: expected a list of at most {MAX_SMS} port GUIDs")
    sm["foreign_sms"] = [wire.guid(g, "foreign SM") for g in foreign]
    return sm


def parse_report(data) -> dict:
    """The report checked whole (fabric_wire grammar on every GUID and table entry); InvalidRequest otherwise."""
    try:
        if not isinstance(data, dict) or set(data) - REPORT_KEYS:
            raise wire.FabricError(f"report: expected an object with keys among {', '.join(sorted(REPORT_KEYS))}")
        _int(data.get(wire.SCHEMA), 1, wire.SCHEMA_VERSION, "schema")
        reads = data.get(wire.READS, [1])
        if not isinstance(reads, list) or len(reads) > 8:
            raise wire.FabricError("reads: expected a short list of schema versions")
        errors = data.get(wire.ERRORS, [])
        if not isinstance(errors, list) or len(errors) > MAX_ERRORS:
            raise wire.FabricError(f"errors: expected a list of at most {MAX_ERRORS}")
        return {
            wire.GENERATION: _int(data.get(wire.GENERATION), 0, 2**63 - 1, "generation"),
            wire.APPLIED: _int(data.get(wire.APPLIED), 0, 2**63 - 1, "applied_generation"),
            wire.ERRORS: [_text(e, MAX_ERROR_LENGTH, "error") for e in errors],
            wire.PORTS: membership.parse_ports(data.get(wire.PORTS, {})),
            wire.SM: _sm(data.get(wire.SM) or {"kind": "opensm"}),
            wire.READS: [_int(r, 1, 99, "reads") for r in reads],
        }
    except wire.FabricError as exc:
        raise InvalidRequest(str(exc)) from None


def record_report(fabric: Fabric, report: dict) -> Fabric:
    """Store a checked report and judge every live partition; state changes are audited."""
    tables = report[wire.PORTS]
    with transaction.atomic():
        current = Fabric.objects.select_for_update().get(pk=fabric.pk)
        previous = hooks.tables(current)
        verdicts = membership.judge(current.desired, tables, previous) if current.desired else {}
        before = {"applied_generation": current.applied_generation, "drift": current.drift, "errors": current.errors}
        current.applied_generation = report[wire.APPLIED]
        current.last_seen = timezone.now()
        current.last_report = {wire.PORTS: {g: [f"0x{e:04x}" for e in t] for g, t in tables.items()},
                               wire.GENERATION: report[wire.GENERATION], wire.READS: report[wire.READS]}  # fmt: skip
        current.sm, current.errors = report[wire.SM], "\n".join(report[wire.ERRORS])[:4000]
        current.drift = "\n".join(p for v in verdicts.values() for p in v.problems)[:4000]
        current.save()
        after = {"applied_generation": current.applied_generation, "drift": current.drift, "errors": current.errors}
        if after != before:
            record("fabric.observed", current, before=before, after=after)
        _judge_partitions(current, verdicts)
    return current


def _judge_partitions(fabric: Fabric, verdicts: dict) -> None:
    changed = []
    for key in PartitionKey.objects.select_for_update().filter(fabric=fabric, released__isnull=True):
        verdict = verdicts.get(key.text)
        if verdict is None:
            continue  # taken after the document the agent judged was compiled: still pending
        state = _state(key, verdict)
        message = "; ".join(verdict.problems)[:4000]
        if (state, message) == (key.state, key.message):
            continue
        record("partition.observed", key, before={"state": key.state, "message": key.message},
               after={"state": state, "message": message}, tenant=key.tenant_id)  # fmt: skip
        PartitionKey.objects.filter(pk=key.pk).update(state=state, message=message)
        changed.append(key.tenant_id)
    if changed:
        _consequences(fabric, changed)


def _state(key: PartitionKey, verdict) -> str:
    """Realized; degraded once a member lost it (until it is whole again); else still pending."""
    if verdict.realized:
        return PartitionState.REALIZED
    if verdict.drift or key.state == PartitionState.DEGRADED:
        return PartitionState.DEGRADED
    return PartitionState.PENDING


def _consequences(fabric: Fabric, tenant_ids: list[int]) -> None:
    """Degrade the Ready clusters whose ports left their partition; re-queue the waiting ones now programmed."""
    clusters = VirtualCluster.objects.filter(
        tenant_id__in=tenant_ids, vf_assignments__pf__host__fabric_link__fabric=fabric,
        state__in={ClusterState.READY} | WAITING,
    ).distinct()  # fmt: skip
    for cluster in clusters:
        waiting = hooks.cluster_waiting(cluster)
        if waiting and cluster.state == ClusterState.READY:
            tenant_services.set_observed(cluster, ClusterState.DEGRADED, "Waiting for " + "; ".join(waiting))
        elif not waiting and cluster.state in WAITING:
            transaction.on_commit(lambda pk=cluster.pk: realizers.realize(pk), robust=True)
