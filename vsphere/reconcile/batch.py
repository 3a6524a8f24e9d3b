"""Run many vSphere tasks as a dependency graph: start all that are ready, wait on all at once."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from vsphere.errors import PermanentError, VSphereError


class StepStatus:
    """Statuses reported to the step callback (the operation log)."""

    STARTED = "started"
    DONE = "done"
    FAILED = "failed"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class Op:
    """One step: `start(results)` sends a request and returns a task, or None if already done."""

    key: str
    step: str
    start: Callable[[dict], object | None]
    after: tuple[str, ...] = ()


StepCallback = Callable[[str, str, str], None]  # (key, step text, status)


class BatchRunner:
    """Starts every op whose dependencies succeeded, with one task watch for all of them."""

    def __init__(self, driver, on_step: StepCallback | None = None, workers: int = 8):
        self.driver = driver
        self.on_step = on_step or (lambda key, step, status: None)
        self.workers = workers

    def run(self, ops: list[Op]) -> dict[str, object]:
        """Run the graph; raise the first failure once nothing is in flight any more."""
        ops_by_key = {op.key: op for op in ops}
        unknown = {d for op in ops for d in op.after} - set(ops_by_key)
        if unknown:
            raise PermanentError(f"batch depends on unknown steps: {sorted(unknown)}")
        state = _State(ops_by_key)
        with self.driver.watch() as watch, ThreadPoolExecutor(self.workers) as pool:
            while state.pending or state.inflight:
                self._skip_blocked(state)
                ready = state.ready()
                if ready:
                    watch.add(self._start(pool, ready, state))
                    continue  # synchronous steps may have unblocked more
                if not state.inflight:
                    break
                for outcome in watch.next_done():
                    self._finish(state, outcome)
        if state.failed:
            first = min(state.failed, key=lambda key: state.order[key])
            raise state.failed[first]
        return state.results

    def _start(self, pool, ready: list[Op], state: _State) -> list[tuple[object, str]]:
        for op in ready:
            del state.pending[op.key]
            self.on_step(op.key, op.step, StepStatus.STARTED)
        started = list(pool.map(lambda op: (op, _call(op, state.results)), ready))
        tasks = []
        for op, (task, error) in started:
            if error is not None:
                state.failed[op.key] = error
                self.on_step(op.key, op.step, StepStatus.FAILED)
            elif task is None:
                state.done.add(op.key)
                self.on_step(op.key, op.step, StepStatus.DONE)
            else:
                state.inflight[self.driver.task_id(task)] = op.key
                tasks.append((task, op.step))
        return tasks

    def _finish(self, state: _State, outcome) -> None:
        key = state.inflight.pop(outcome.moid, None)
        if key is None:
            return
        op = state.ops[key]
        if outcome.ok:
            state.done.add(key)
            state.results[key] = outcome.result
            self.on_step(key, op.step, StepStatus.DONE)
        else:
            state.failed[key] = outcome.error
            self.on_step(key, op.step, StepStatus.FAILED)

    def _skip_blocked(self, state: _State) -> None:
        changed = True
        while changed:
            changed = False
            for key, op in list(state.pending.items()):
                if any(d in state.failed or d in state.skipped for d in op.after):
                    del state.pending[key]
                    state.skipped.add(key)
                    self.on_step(key, op.step, StepStatus.SKIPPED)
                    changed = True


class _State:
    def __init__(self, ops: dict[str, Op]):
        self.ops = ops
        self.order = {key: i for i, key in enumerate(ops)}
        self.pending = dict(ops)
        self.inflight: dict[str, str] = {}  # task id -> op key
        self.done: set[str] = set()
        self.skipped: set[str] = set()
        self.failed: dict[str, VSphereError] = {}
        self.results: dict[str, object] = {}

    def ready(self) -> list[Op]:
        return [op for op in self.pending.values() if all(d in self.done for d in op.after)]


def _call(op: Op, results: dict) -> tuple[object | None, VSphereError | None]:
    try:
        return op.start(results), None
    except VSphereError as exc:
        return None, exc
