"""The NSX Policy API routes: hierarchical PATCH, single objects, collections, realized state, VMs, tags."""

from __future__ import annotations

import re

from . import errors, hierarchy, members, realize, schema
from .faults import Faults
from .kinds import collection_of, kind_of
from .store import Store, Transaction
from .vcenter import VM, VCenter

PREFIX = "/policy/api/v1"
VMS = "/infra/realized-state/enforcement-points/default/virtual-machines"
GROUP_VMS = re.compile(r"^(/infra/domains/[^/]+/groups/[^/]+)/members/virtual-machines$")
MAX_TAGS, MAX_SCOPE, MAX_TAG = 30, 128, 256
DELETE_WAIT = 30


class Api:
    """Answers one NSX API call: (status, body or None)."""

    def __init__(self, store: Store, realizer: realize.Realizer, faults: Faults, vcenter: VCenter | None):
        self.store, self.realizer, self.faults, self.vcenter = store, realizer, faults, vcenter

    def handle(self, method: str, path: str, query: dict[str, str], body) -> tuple[int, dict | None]:
        """Route one call under /policy/api/v1 (or /api, which has nothing here)."""
        if not path.startswith(PREFIX + "/"):
            raise errors.NsxError(404, errors.NOT_FOUND, f"{path}: not served by this NSX stand-in.")
        policy = path[len(PREFIX) :].rstrip("/")
        special = self._special(method, policy, query, body)
        if special is not None:
            return special
        if collection_of(policy) is not None and kind_of(policy) is None:
            _allow(method, "GET")
            return 200, self._list(policy)
        if kind_of(policy) is not None:
            return self._object(method, policy, query, body)
        raise errors.not_found(policy)

    def _special(self, method: str, policy: str, query: dict, body) -> tuple[int, dict | None] | None:
        """The routes that are not plain objects or collections (None: not one of them)."""
        if policy == "/infra":
            _allow(method, "GET", "PATCH")
            if method == "GET":
                return 200, {"resource_type": "Infra", "id": "infra", "path": "/infra", "display_name": "infra"}
            self.mutate(lambda tx: hierarchy.patch_infra(tx, body))
            return 200, None
        if policy in ("/infra/realized-state/status", "/infra/realized-state/realized-entities"):
            _allow(method, "GET")
            intent = _required(query, "intent_path")
            answer = realize.consolidated_status if policy.endswith("status") else realize.realized_entities
            with self.store.lock:
                return 200, answer(self.store, intent.rstrip("/") or intent)
        if policy == VMS:
            _allow(method, "GET", "POST")
            return (200, self._vms(query)) if method == "GET" else self._update_tags(query, body)
        found = GROUP_VMS.match(policy)
        if found:
            _allow(method, "GET")
            return 200, self._group_vms(found.group(1))
        return None

    # -- objects and collections

    def _object(self, method: str, path: str, query: dict, body) -> tuple[int, dict | None]:
        """GET, PATCH, PUT or DELETE one object."""
        _allow(method, "GET", "PATCH", "PUT", "DELETE")
        kind = kind_of(path)
        if method == "GET":
            with self.store.lock:
                if path not in self.store.objects:
                    raise errors.not_found(path)
                return 200, hierarchy.compose(self.store, path)
        if method == "DELETE":
            self.mutate(lambda tx: tx.delete(path))
            return 200, None
        self.mutate(lambda tx: hierarchy.put_object(tx, path, kind, body, replace=method == "PUT"))
        if method == "PATCH":
            return 200, None
        with self.store.lock:
            return 200, hierarchy.compose(self.store, path)

    def _list(self, path: str) -> dict:
        """A collection: {"results": [...], "result_count": n}."""
        parent, kind = collection_of(path)
        with self.store.lock:
            if parent != "/infra" and parent not in self.store.objects:
                raise errors.not_found(parent)
            index = self.store.by_parent() if hierarchy.inline_fields(kind) else None
            results = [hierarchy.compose(self.store, o["path"], index) for o in self.store.children(parent, kind)]
        return {"results": results, "result_count": len(results)}

    def mutate(self, apply) -> None:
        """Apply to a copy, check the final state, commit (or change nothing); wait for port groups to go."""
        with self.store.lock:
            tx = Transaction(self.store)
            apply(tx)
            tx.check()
            gone = [p for p in sorted(tx.deleted()) if kind_of(p).name == "Segment" and p in self.store.realized]
            self._refuse_attached(gone)
            uuids = [self.store.realized[p].uuid for p in gone]
            self.store.commit(tx)
            waits = self.realizer.schedule(tx.changed, uuids)
        for event in waits:
            event.wait(DELETE_WAIT)

    def _refuse_attached(self, segments: list[str]) -> None:
        """A segment whose port group still has VMs cannot go (400 naming them)."""
        if self.vcenter is None:
            return
        for path in segments:
            names = self.vcenter.vms_on(self.store.realized[path].uuid)
            if names:
                raise errors.NsxError(
                    400, errors.IN_USE, f"Segment {path} cannot be deleted: VMs attached to it: {', '.join(names)}."
                )

    # -- inventory

    def _inventory(self) -> list[VM]:
        """The vCenter's VMs (none without a vCenter)."""
        return self.vcenter.vms() if self.vcenter is not None else []

    def _vms(self, query: dict) -> dict:
        """VirtualMachineListResult, optionally filtered by display_name or external_id."""
        vms = self._inventory()
        for key, attr in (("display_name", "name"), ("external_id", "external_id")):
            if key in query:
                vms = [vm for vm in vms if getattr(vm, attr) == query[key]]
        with self.store.lock:
            results = [self._vm_body(vm) for vm in vms]
        return {"results": results, "result_count": len(results)}

    def _vm_body(self, vm: VM) -> dict:
        """One VirtualMachine."""
        return {
            "resource_type": "VirtualMachine",
            "external_id": vm.external_id,
            "display_name": vm.name,
            "power_state": vm.power_state,
            "host_id": vm.host,
            "local_id_on_host": vm.moid,
            "compute_ids": [f"moIdOnHost:{vm.moid}", f"instanceUuid:{vm.external_id}"],
            "type": "REGULAR",
            "tags": [dict(t) for t in self.store.tags.get(vm.external_id, [])],
        }

    def _update_tags(self, query: dict, body) -> tuple[int, None]:
        """POST ?action=update_tags: replace one VM's tags (404 for an unknown VM)."""
        if query.get("action") != "update_tags":
            raise errors.invalid(f"action {query.get('action')!r} is not supported; use action=update_tags.")
        schema.validate(body, "VirtualMachineTagUpdate", VMS)
        external_id, tags = body.get("external_id"), body.get("tags") or []
        if not external_id:
            raise errors.invalid(f"{VMS}: external_id is required.")
        _check_tags(tags)
        if external_id not in {vm.external_id for vm in self._inventory()}:
            raise errors.NsxError(404, errors.NOT_FOUND, f"Virtual machine with external_id {external_id} not found.")
        with self.store.lock:
            self.store.tags[external_id] = [{"scope": t.get("scope", ""), "tag": t.get("tag", "")} for t in tags]
        return 204, None

    def _group_vms(self, group: str) -> dict:
        """RealizedVirtualMachineListResult: the VMs a group's expression selects now."""
        vms = self._inventory()
        with self.store.lock:
            if group not in self.store.objects:
                raise errors.not_found(group)
            found = members.members(self.store, group, vms)
        results = [
            {
                "resource_type": "RealizedVirtualMachine",
                "id": vm.external_id,
                "display_name": vm.name,
                "host_id": vm.host,
                "local_id_on_host": vm.moid,
                "power_state": vm.power_state,
                "compute_ids": [f"moIdOnHost:{vm.moid}", f"instanceUuid:{vm.external_id}"],
                "state": "REALIZED",
            }
            for vm in found
        ]
        return {"results": results, "result_count": len(results)}


def _check_tags(tags: list[dict]) -> None:
    """NSX's limits: 30 tags, scope up to 128 and tag up to 256 characters, no duplicates."""
    if len(tags) > MAX_TAGS:
        raise errors.invalid(f"At most {MAX_TAGS} tags are allowed, {len(tags)} given.")
    seen = set()
    for tag in tags:
        scope, value = tag.get("scope", ""), tag.get("tag", "")
        if len(scope) > MAX_SCOPE or len(value) > MAX_TAG:
            raise errors.invalid(f"Tag {scope}|{value} is too long (scope {MAX_SCOPE}, tag {MAX_TAG} characters).")
        if (scope, value) in seen:
            raise errors.invalid(f"Tag {scope}|{value} is given twice.")
        seen.add((scope, value))


def _allow(method: str, *allowed: str) -> None:
    """405 for a method this route does not have."""
    if method not in allowed:
        raise errors.NsxError(405, errors.UNSUPPORTED, f"Method {method} is not allowed here ({', '.join(allowed)}).")


def _required(query: dict, name: str) -> str:
    """A query parameter that must be there."""
    if not query.get(name):
        raise errors.invalid(f"Query parameter {name} is required.")
    return query[name]
