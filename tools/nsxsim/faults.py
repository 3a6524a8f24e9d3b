"""Injected faults (HTTP answers, realization errors) and per-call counters, for tests."""

from __future__ import annotations

import http
import threading
from collections import Counter
from dataclasses import dataclass

from . import errors

ERROR_STATUSES = frozenset(s.value for s in http.HTTPStatus if s.value >= 400)


@dataclass
class Fault:
    """One armed fault: an HTTP answer for matching calls, or an ERROR for matching realizations."""

    count: int = 1
    method: str = ""
    path: str = ""
    status: int = 0
    delay: float = 0.0
    realize_error: str = ""
    message: str = ""
    error_code: int = 0


class Faults:
    """The armed faults; each fires `count` times, then is gone."""

    def __init__(self):
        self.lock = threading.Lock()
        self.items: list[Fault] = []

    def add(self, spec) -> Fault:
        """Arm a fault from its JSON description (400 for a malformed one)."""
        if not isinstance(spec, dict):
            raise errors.invalid("a fault is a JSON object")
        fault = Fault(
            count=spec.get("count", 1),
            method=str(spec.get("method", "")).upper(),
            path=spec.get("path", ""),
            status=spec.get("status", 0),
            delay=spec.get("delay", 0.0),
            realize_error=spec.get("realize_error", ""),
            message=spec.get("message", ""),
            error_code=spec.get("error_code", errors.REVISION if spec.get("status") == 412 else errors.INJECTED),
        )
        unknown = set(spec) - set(vars(fault))
        typed = isinstance(fault.count, int) and isinstance(fault.status, int) and isinstance(fault.delay, int | float)
        http_fault = fault.path and (fault.status or fault.delay)
        typed = typed and (fault.status == 0 or fault.status in ERROR_STATUSES)
        if unknown or not typed or fault.count < 1 or not (http_fault or fault.realize_error):
            raise errors.invalid(f"not a fault: {spec} (see tools/nsxsim/README.md)")
        with self.lock:
            self.items.append(fault)
        return fault

    def clear(self, spec=None) -> None:
        """Disarm every fault, or only those whose fields equal every field of `spec` (400 for an unknown one)."""
        spec = spec or {}
        if not isinstance(spec, dict) or set(spec) - set(vars(Fault())):
            raise errors.invalid(f"not a fault selector: {spec} (see tools/nsxsim/README.md)")
        with self.lock:
            self.items = [f for f in self.items if spec and any(getattr(f, k) != v for k, v in spec.items())]

    def take_http(self, method: str, path: str) -> Fault | None:
        """The first armed HTTP fault for this call (its count used up by one)."""
        return self._take(lambda f: f.path and path.startswith(f.path) and f.method in ("", method))

    def take_realize(self, intent_path: str) -> Fault | None:
        """The first armed realization fault whose prefix matches this intent."""
        return self._take(lambda f: f.realize_error and intent_path.startswith(f.realize_error))

    def _take(self, match) -> Fault | None:
        with self.lock:
            for fault in self.items:
                if match(fault):
                    fault.count -= 1
                    if fault.count <= 0:
                        self.items.remove(fault)
                    return fault
        return None

    def listing(self) -> list[dict]:
        """The armed faults, for GET /_enclave/faults."""
        with self.lock:
            return [vars(f).copy() for f in self.items]


class Stats:
    """Calls counted by "METHOD /path" (query string left out)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.calls: Counter[str] = Counter()

    def count(self, method: str, path: str) -> None:
        """One more call."""
        with self.lock:
            self.calls[f"{method} {path}"] += 1

    def reset(self) -> None:
        """Forget every count."""
        with self.lock:
            self.calls.clear()

    def snapshot(self) -> dict:
        """{"calls": {...}, "total": n}."""
        with self.lock:
            return {"calls": dict(sorted(self.calls.items())), "total": sum(self.calls.values())}
