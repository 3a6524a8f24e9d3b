"""Who recompiles when policy or its addresses change: one call, every enforcement point.

`policy_changed()` is called by netpolicy's services inside the transaction that changed intent.
The Linux nodes' part is explicit (`tenants.network.network_changed`: the tenants' network
generation moves with the change, the compile is queued on commit, the sweep finds a lost one).
Enforcement points above netpolicy (vSphere port-group filters) register a consumer from their
AppConfig.ready(); it runs after commit. netpolicy never imports them, so the apps stay layered.
"""

from collections.abc import Callable, Iterable

from django.db import transaction

from tenants.network import network_changed

Consumer = Callable[[frozenset[int] | None], None]  # affected tenant ids, None for every tenant
_CONSUMERS: dict[str, Consumer] = {}


def register(name: str, consumer: Consumer) -> None:
    """Add an enforcement point's consumer (one per name: re-registering replaces it)."""
    _CONSUMERS[name] = consumer


def policy_changed(tenant_ids: Iterable[int] | None = None) -> None:
    """Inside the change's transaction: the nodes' generation moves now, every consumer runs after commit."""
    ids = None if tenant_ids is None else frozenset(tenant_ids)
    network_changed(ids)
    transaction.on_commit(lambda: _notify(ids), robust=True)


def _notify(ids: frozenset[int] | None) -> None:
    for consumer in list(_CONSUMERS.values()):
        consumer(ids)
