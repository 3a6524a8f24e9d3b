"""Who recompiles when policy or its addresses change: enforcement points register here, explicitly.

Node agents (agents app) and vSphere port-group filters (vsphere app) each register one consumer
from their AppConfig.ready(); netpolicy's services call `policy_changed()` where intent changes.
netpolicy never imports them, so the apps stay layered.
"""

from collections.abc import Callable, Iterable

from django.db import transaction

Consumer = Callable[[frozenset[int] | None], None]  # affected tenant ids, None for every tenant
_CONSUMERS: dict[str, Consumer] = {}


def register(name: str, consumer: Consumer) -> None:
    """Add an enforcement point's consumer (one per name: re-registering replaces it)."""
    _CONSUMERS[name] = consumer


def policy_changed(tenant_ids: Iterable[int] | None = None) -> None:
    """After commit, tell every enforcement point which tenants' policy or addresses changed."""
    ids = None if tenant_ids is None else frozenset(tenant_ids)
    transaction.on_commit(lambda: _notify(ids))


def _notify(ids: frozenset[int] | None) -> None:
    for consumer in list(_CONSUMERS.values()):
        consumer(ids)
