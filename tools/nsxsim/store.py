"""The stand-in's state: stored objects, their realization, VM tags; changes go through a transaction."""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass, field

from . import errors
from .kinds import ANY, KINDS, Kind, is_ip, kind_of, parent_of, references

# Fields the server owns: a body may carry them (a GET sent back), the stored values win.
SERVER_FIELDS = frozenset(
    (
        "id",
        "path",
        "relative_path",
        "parent_path",
        "resource_type",
        "marked_for_delete",
        "overridden",
        "_revision",
        "_create_user",
        "_create_time",
        "_last_modified_user",
        "_last_modified_time",
        "_system_owned",
        "_protection",
        "unique_id",
        "realization_id",
        "remote_path",
        "owner_id",
        "origin_site_id",
        "_self",
        "_links",
        "_schema",
    )
)
USER = "admin"


def now_ms() -> int:
    """Milliseconds since the epoch, as NSX's timestamps."""
    return int(time.time() * 1000)


@dataclass
class Realization:
    """Where one intent's realization stands."""

    uuid: str
    state: str = "IN_PROGRESS"  # IN_PROGRESS, REALIZED, ERROR
    generation: int = 0
    message: str = ""
    since: int = field(default_factory=now_ms)
    done: int = 0


class Store:
    """Everything the stand-in holds, behind one lock."""

    def __init__(self):
        self.lock = threading.RLock()
        self.objects: dict[str, dict] = {}
        self.realized: dict[str, Realization] = {}
        self.tags: dict[str, list[dict]] = {}
        self.seeded: frozenset[str] = frozenset()

    def seed(self, items: list[tuple[str, dict]]) -> None:
        """Objects present from the start (and never deletable): realized already."""
        tx = Transaction(self)
        for path, body in items:
            tx.upsert(path, kind_of(path), body, replace=False)
            tx.objects[path]["_system_owned"] = True
        self.commit(tx)
        for path in tx.changed:
            self.realized[path].state, self.realized[path].done = "REALIZED", now_ms()
        self.seeded = frozenset(tx.changed)

    def commit(self, tx: Transaction) -> None:
        """Make a checked transaction the state; changed intents start realizing again."""
        self.objects = tx.objects
        for path in tx.removed:
            self.realized.pop(path, None)
        for path in tx.changed:
            entry = self.realized.setdefault(path, Realization(uuid=str(uuid.uuid4())))
            entry.state, entry.message, entry.generation = "IN_PROGRESS", "", entry.generation + 1
            entry.since = now_ms()

    def children(self, parent: str, kind: Kind) -> list[dict]:
        """The stored objects of `kind` directly under `parent`, in path order."""
        prefix = f"{parent}/{kind.collection}/"
        found = [p for p in self.objects if p.startswith(prefix) and "/" not in p[len(prefix) :]]
        return [self.objects[p] for p in sorted(found)]

    def by_parent(self) -> dict[str, list[str]]:
        """Every stored path grouped under its parent path, each group in path order."""
        groups: dict[str, list[str]] = {}
        for path in sorted(self.objects):
            groups.setdefault(parent_of(path), []).append(path)
        return groups


class Transaction:
    """Changes applied to a copy of the objects, checked as a whole, then committed or dropped."""

    def __init__(self, store: Store):
        self.store = store
        self.objects = dict(store.objects)
        self.changed: set[str] = set()
        self.removed: set[str] = set()

    def upsert(self, path: str, kind: Kind, given: dict, replace: bool) -> dict:
        """Create, merge (PATCH: given fields replace) or replace (PUT) one object; returns the stored one."""
        old = self.objects.get(path)
        if old is not None:
            _check_revision(path, old, given, required=replace)
        elif parent_of(path) != "/infra" and parent_of(path) not in self.objects:
            raise errors.not_found(parent_of(path))
        content = {k: v for k, v in given.items() if k not in SERVER_FIELDS}
        if old is not None and not replace:
            content = {**user_fields(old), **content}
        content.setdefault("display_name", path.rsplit("/", 1)[1])
        if old is not None and content == user_fields(old):
            return old
        stored = {**content, **self._server_fields(path, kind, given, old)}
        self.objects[path] = stored
        self.changed.add(path)
        self.removed.discard(path)
        return stored

    def _server_fields(self, path: str, kind: Kind, given: dict, old: dict | None) -> dict:
        """The fields the server keeps: ids, paths, revision, times, users."""
        stamp = now_ms()
        first = old or {"_create_time": stamp, "_revision": -1, "unique_id": str(uuid.uuid4())}
        return {
            "id": path.rsplit("/", 1)[1],
            "path": path,
            "relative_path": path.rsplit("/", 1)[1],
            "parent_path": parent_of(path),
            "resource_type": given.get("resource_type") or kind.name,
            "marked_for_delete": False,
            "overridden": False,
            "unique_id": first["unique_id"],
            "_revision": first["_revision"] + 1,
            "_create_time": first["_create_time"],
            "_create_user": USER,
            "_last_modified_time": stamp,
            "_last_modified_user": USER,
            "_system_owned": False,
            "_protection": "NOT_PROTECTED",
        }

    def delete(self, path: str, given: dict | None = None) -> None:
        """Remove an object and everything under it (a missing one: nothing to do, as NSX)."""
        old = self.objects.get(path)
        if old is None:
            return
        if path in self.store.seeded:
            raise errors.invalid(f"{path} is part of the stand-in's fixed inventory and cannot be deleted.")
        _check_revision(path, old, given or {}, required=False)
        prefix = path + "/"
        nested = any(k.parent == kind_of(path).name for k in KINDS.values())  # else no scan: nothing under it
        below = [p for p in self.objects if p.startswith(prefix)] if nested else []
        for gone in [*below, path]:
            del self.objects[gone]
            self.changed.discard(gone)
            self.removed.add(gone)

    def deleted(self) -> set[str]:
        """Paths that existed before and are gone now."""
        return {p for p in self.removed if p in self.store.objects}

    def check(self) -> None:
        """Referential integrity of the final state: no dangling path, nothing deleted still in use."""
        for path in sorted(self.changed):
            body = self.objects[path]
            for fld, target, ref in references(kind_of(path), body):
                self._check_target(path, fld, target, ref)
        gone = self.deleted()
        if not gone:
            return
        users: dict[str, list[str]] = {}
        for path, body in self.objects.items():
            for _fld, target, _ref in references(kind_of(path), body):
                if target in gone:
                    users.setdefault(target, []).append(path)
        if users:
            target = sorted(users)[0]
            raise errors.in_use(target, users[target])

    def _check_target(self, path: str, fld: str, target, ref) -> None:
        """One referenced path: ANY, an address where allowed, or an existing object of an allowed kind."""
        if (ref.any_ok and target == ANY) or (ref.ip_ok and isinstance(target, str) and is_ip(target)):
            return
        if not isinstance(target, str) or target not in self.objects:
            raise errors.dangling(fld, path, str(target))
        if ref.targets and kind_of(target).name not in ref.targets:
            wanted = " or ".join(ref.targets)
            raise errors.invalid(f"Field '{fld}' of {path} must point to a {wanted}, not {target}.")


def user_fields(body: dict) -> dict:
    """An object's fields without the server's."""
    return {k: v for k, v in body.items() if k not in SERVER_FIELDS}


def _check_revision(path: str, old: dict, given: dict, required: bool) -> None:
    """412 when a given _revision is not the stored one, or a required one is missing."""
    if "_revision" in given and given["_revision"] != old["_revision"]:
        raise errors.revision(path, given["_revision"], old["_revision"])
    if required and "_revision" not in given:
        raise errors.NsxError(
            412, errors.REVISION, f"{path} exists: a PUT must carry its current _revision ({old['_revision']})."
        )
