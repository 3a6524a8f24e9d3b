"""What netpolicy asks of the app that owns Linux node pools (agents), which registers here from its ready().

netpolicy sits below agents and never imports it. The segment service calls `check_segment` itself,
before it saves a segment, so no signal of another app vetoes the save (docs/architecture.md, Registries).
"""

from collections.abc import Callable

_checks: list[Callable] = []


def register_check(check: Callable) -> None:
    """Add a check that raises a portal.errors.ServiceError to refuse a segment about to be saved."""
    if check not in _checks:
        _checks.append(check)


def check_segment(segment) -> None:
    """Run every registered check on a segment about to be saved (new, or changing state)."""
    for check in _checks:
        check(segment)
