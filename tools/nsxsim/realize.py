"""Asynchronous realization (IN_PROGRESS, then REALIZED or ERROR) and the realized-state answers."""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time

from . import errors
from .faults import Faults
from .kinds import kind_of
from .store import Realization, Store, now_ms
from .vcenter import VCenter

log = logging.getLogger("nsxsim")
SITE = "/infra/sites/default"
EP = f"{SITE}/enforcement-points/default"
REALIZED_BASE = "/infra/realized-state/enforcement-points/default"
ENTITY_TYPES = {
    "Segment": "RealizedLogicalSwitch",
    "Tier1": "RealizedLogicalRouter",
    "LocaleServices": "RealizedLogicalRouterLocaleServices",
    "Service": "RealizedNSService",
    "ServiceEntry": "RealizedNSServiceEntry",
    "Group": "RealizedNSGroup",
    "SecurityPolicy": "RealizedFirewallSection",
    "Rule": "RealizedFirewallRule",
}
RETRY_SECONDS = 1.0  # how soon a failed realization is tried again
CONSOLIDATED = {"REALIZED": "SUCCESS", "IN_PROGRESS": "IN_PROGRESS", "ERROR": "ERROR"}
PUBLISH = {"SUCCESS": "REALIZED", "IN_PROGRESS": "UNREALIZED", "ERROR": "ERROR"}
WORST = ("ERROR", "IN_PROGRESS", "SUCCESS")


class Realizer:
    """One background thread: realizes intents after the delay, creates and removes segments' port groups."""

    def __init__(self, store: Store, faults: Faults, delay: float, vcenter: VCenter | None):
        self.store, self.faults, self.delay, self.vcenter = store, faults, delay, vcenter
        self.cond = threading.Condition()
        self.queue: list = []
        self.seq = itertools.count()
        self.thread = threading.Thread(target=self._run, name="realizer", daemon=True)

    def start(self) -> None:
        """Start the worker thread."""
        self.thread.start()

    def schedule(self, changed: set[str], removed_segments: list[str]) -> list[threading.Event]:
        """Queue realization of changed intents and removal of deleted segments' port groups."""
        due = time.monotonic() + self.delay
        done = []
        with self.cond:
            for uid in removed_segments if self.vcenter else []:
                event = threading.Event()
                done.append(event)
                heapq.heappush(self.queue, (time.monotonic(), next(self.seq), ("remove", uid, event)))
            for path in sorted(changed):
                generation = self.store.realized[path].generation
                heapq.heappush(self.queue, (due, next(self.seq), ("realize", path, generation)))
            self.cond.notify()
        return done

    def _run(self) -> None:
        """Take due jobs in order, forever."""
        while True:
            with self.cond:
                while not self.queue or self.queue[0][0] > time.monotonic():
                    self.cond.wait(timeout=self.queue[0][0] - time.monotonic() if self.queue else None)
                _due, _seq, job = heapq.heappop(self.queue)
            try:
                self._remove(*job[1:]) if job[0] == "remove" else self._realize(*job[1:])
            except Exception:
                log.exception("realizer job %s failed", job)

    def _remove(self, uid: str, event: threading.Event) -> None:
        """Remove a deleted segment's port group."""
        try:
            self.vcenter.remove_portgroup(uid)
        finally:
            event.set()

    def _realize(self, path: str, generation: int) -> None:
        """Realize one intent if it is still at this generation."""
        with self.store.lock:
            entry = self.store.realized.get(path)
            if entry is None or entry.generation != generation:
                return
            obj = self.store.objects[path]
            fault = self.faults.take_realize(path)
        state, message = ("ERROR", fault.message or "Injected realization error.") if fault else ("REALIZED", "")
        created = False
        if not fault and self.vcenter and kind_of(path).name == "Segment":
            state, message, created = self._portgroup(obj, entry.uuid)
        with self.store.lock:
            current = self.store.realized.get(path)
            if current is not None and current.generation == generation:
                current.state, current.message, current.done = state, message, now_ms()
                if state == "ERROR":  # as NSX does, a failed realization is tried again in the background
                    self._again(path, generation)
                return
        if created and (current is None or current.uuid != entry.uuid):
            self.vcenter.remove_portgroup(entry.uuid)  # deleted while its port group was being made

    def _again(self, path: str, generation: int) -> None:
        """Queue another realization attempt of a failed intent (it stays ERROR until one succeeds)."""
        with self.cond:
            due = time.monotonic() + max(RETRY_SECONDS, self.delay)
            heapq.heappush(self.queue, (due, next(self.seq), ("realize", path, generation)))
            self.cond.notify()

    def _portgroup(self, obj: dict, uid: str) -> tuple[str, str, bool]:
        """Create (or rename) the segment's port group: (state, message, created)."""
        try:
            done = self.vcenter.ensure_portgroup(obj["display_name"], uid, obj["path"])
        except Exception as exc:  # any vCenter failure is the segment's realization error
            reason = getattr(exc, "msg", "") or str(exc) or type(exc).__name__
            return "ERROR", f"Port group for segment {obj['path']} could not be created in vCenter: {reason}", False
        return "REALIZED", "", done == "created"


def _subtree(store: Store, intent_path: str) -> list[tuple[str, Realization]]:
    """The realization entries of an intent and everything under it (/infra: all)."""
    if intent_path == "/infra":
        return sorted(store.realized.items())
    prefix = intent_path.rstrip("/") + "/"
    found = [(p, e) for p, e in store.realized.items() if p == intent_path or p.startswith(prefix)]
    if intent_path not in store.realized:
        raise errors.not_found(intent_path)
    return sorted(found)


def consolidated_status(store: Store, intent_path: str) -> dict:
    """ConsolidatedRealizedStatus of an intent: the worst state of it and its descendants."""
    entries = _subtree(store, intent_path)
    states = {CONSOLIDATED[e.state] for _p, e in entries}
    status = next((s for s in WORST if s in states), "SUCCESS")
    obj = store.objects.get(intent_path, {})
    body = {
        "intent_path": intent_path,
        "consolidated_status": {"consolidated_status": status},
        "consolidated_status_per_enforcement_point": [
            {
                "resource_type": "ConsolidatedStatusPerEnforcementPoint",
                "site_path": SITE,
                "enforcement_point_id": "default",
                "enforcement_point_path": EP,
                "consolidated_status": {"consolidated_status": status},
            }
        ],
        "publish_status": PUBLISH[status],
        "intent_version": str(obj.get("_revision", 0)),
    }
    if status != "IN_PROGRESS":
        entry = store.realized.get(intent_path)
        finished = max(e.done for _p, e in entries)
        body["publish_time"] = finished
        body["time_taken_for_realization"] = max(0, finished - entry.since) if entry else 0
    return body


def realized_entities(store: Store, intent_path: str) -> dict:
    """GenericPolicyRealizedResourceListResult for one intent."""
    entry = store.realized.get(intent_path)
    obj = store.objects.get(intent_path)
    if entry is None or obj is None:
        raise errors.not_found(intent_path)
    kind = kind_of(intent_path)
    item = {
        "resource_type": "GenericPolicyRealizedResource",
        "id": entry.uuid,
        "display_name": obj.get("display_name", obj["id"]),
        "path": f"{REALIZED_BASE}/{kind.collection}/{entry.uuid}",
        "relative_path": entry.uuid,
        "parent_path": REALIZED_BASE,
        "entity_type": ENTITY_TYPES.get(kind.name, f"Realized{kind.name}"),
        "intent_paths": [intent_path],
        "intent_reference": [intent_path],
        "site_path": SITE,
        "enforcement_point_path": EP,
        "realization_specific_identifier": entry.uuid,
        "state": entry.state,
        "alarms": [_alarm(intent_path, entry)] if entry.state == "ERROR" else [],
        "_create_time": entry.since,
        "_last_modified_time": entry.done or entry.since,
    }
    return {"results": [item], "result_count": 1}


def _alarm(intent_path: str, entry: Realization) -> dict:
    """The PolicyAlarmResource of a failed realization."""
    return {
        "resource_type": "PolicyAlarmResource",
        "id": f"alarm-{entry.uuid}",
        "message": entry.message,
        "severity": "ERROR",
        "source_reference": intent_path,
        "intent_paths": [intent_path],
        "error_details": {"error_code": errors.INTERNAL, "module_name": "nsx-policy", "error_message": entry.message},
    }
