"""Readiness conditions: what must hold, besides a realizer's own work, before an object shows Ready.

Apps above the realizers (fabrics: an InfiniBand partition programmed) register a condition from their
AppConfig.ready(); the realizers (vsphere's reconcile, netpolicy's segment page) ask `waiting()` before
they call a cluster or segment Ready. Nobody here imports an app, so the layers keep pointing down.
"""

from collections.abc import Callable

Condition = Callable[[object], list[str]]  # the object -> why it is not ready yet (empty: nothing to wait for)
_CONDITIONS: dict[str, dict[str, Condition]] = {"cluster": {}, "segment": {}}


def register(kind: str, name: str, condition: Condition) -> None:
    """Add a condition for "cluster" or "segment" objects (one per name: re-registering replaces it)."""
    _CONDITIONS[kind][name] = condition


def waiting(kind: str, obj) -> list[str]:
    """Every reason the object is not ready yet, in registration order."""
    return [reason for condition in list(_CONDITIONS[kind].values()) for reason in condition(obj)]
