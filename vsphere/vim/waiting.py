"""Waiting on many vSphere tasks at once with one private property collector."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass

from pyVmomi import vim, vmodl

from vsphere.errors import VSphereError
from vsphere.vim.faults import fault_of, guarded

TASK_PATHS = ["info.state", "info.error", "info.result"]


@dataclass
class TaskDone:
    """Outcome of one finished vSphere task."""

    moid: str
    ok: bool
    result: object = None
    error: VSphereError | None = None


class TaskWatch:
    """Waits on many tasks with one private property collector; filters are always destroyed."""

    def __init__(self, collector, max_wait_seconds: int):
        self._root_pc = collector
        self._max_wait = max_wait_seconds
        self._pc = None
        self._filters: list = []
        self._version = ""
        self._pending: dict[str, tuple[object, str]] = {}  # moid -> (task, step)
        self._seen: dict[str, dict] = {}

    def __enter__(self) -> TaskWatch:
        with guarded("create property collector"):
            self._pc = self._root_pc.CreatePropertyCollector()
        return self

    def __exit__(self, *exc) -> None:
        try:
            for filter_, _moids in self._filters:
                with contextlib.suppress(Exception):
                    filter_.DestroyPropertyFilter()
        finally:
            self._filters = []
            with contextlib.suppress(Exception):
                self._pc.DestroyPropertyCollector()

    def _drop_finished_filters(self) -> None:
        # A filter whose tasks all finished only costs the collector work on every update.
        keep = []
        for filter_, moids in self._filters:
            if moids & self._pending.keys():
                keep.append((filter_, moids))
            else:
                with guarded("destroy task filter"):
                    filter_.DestroyPropertyFilter()
        self._filters = keep

    @property
    def pending(self) -> int:
        """How many added tasks have not finished yet."""
        return len(self._pending)

    def add(self, tasks: Iterable[tuple[object, str]]) -> None:
        """Watch more tasks, each given with the step name used in errors."""
        tasks = list(tasks)
        if not tasks:
            return
        spec = vmodl.query.PropertyCollector.FilterSpec(
            objectSet=[vmodl.query.PropertyCollector.ObjectSpec(obj=t) for t, _ in tasks],
            propSet=[vmodl.query.PropertyCollector.PropertySpec(type=vim.Task, pathSet=TASK_PATHS)],
        )
        with guarded("create task filter"):
            filter_ = self._pc.CreateFilter(spec, partialUpdates=False)
        self._filters.append((filter_, {task._moId for task, _ in tasks}))
        for task, step in tasks:
            self._pending[task._moId] = (task, step)
        self._version = ""  # an empty version returns the new tasks' current state at once

    def next_done(self) -> list[TaskDone]:
        """Block up to max_wait_seconds and return the tasks that finished meanwhile."""
        options = vmodl.query.PropertyCollector.WaitOptions(maxWaitSeconds=self._max_wait)
        with guarded("wait for tasks"):
            update = self._pc.WaitForUpdatesEx(self._version, options)
        if update is None:
            # No update within the bound: the simulator drops some under load, so read.
            return self._fallback_read()
        self._version = update.version
        for filter_update in update.filterSet or []:
            for obj in filter_update.objectSet or []:
                props = self._seen.setdefault(obj.obj._moId, {})
                for change in obj.changeSet or []:
                    props[change.name] = change.val
        return self._collect_finished()

    def _fallback_read(self) -> list[TaskDone]:
        if not self._pending:
            return []
        spec = vmodl.query.PropertyCollector.FilterSpec(
            objectSet=[vmodl.query.PropertyCollector.ObjectSpec(obj=task) for task, _ in self._pending.values()],
            propSet=[vmodl.query.PropertyCollector.PropertySpec(type=vim.Task, pathSet=TASK_PATHS)],
        )
        with guarded("read task state"):
            result = self._pc.RetrievePropertiesEx([spec], vmodl.query.PropertyCollector.RetrieveOptions())
        for content in (result.objects if result else None) or []:
            props = self._seen.setdefault(content.obj._moId, {})
            for prop in content.propSet or []:
                props[prop.name] = prop.val
        return self._collect_finished()

    def _collect_finished(self) -> list[TaskDone]:
        done = []
        for moid in list(self._pending):
            props = self._seen.get(moid, {})
            state = props.get("info.state")
            if state not in ("success", "error"):
                continue
            _task, step = self._pending.pop(moid)
            if state == "success":
                done.append(TaskDone(moid, True, result=props.get("info.result")))
            else:
                done.append(TaskDone(moid, False, error=fault_of(props.get("info.error"), step)))
        if done:
            self._drop_finished_filters()
        return done

    def wait_all(self) -> list[TaskDone]:
        """Wait until every added task finished; return all outcomes."""
        outcomes = []
        while self._pending:
            outcomes += self.next_done()
        return outcomes
