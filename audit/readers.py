"""Whose events a reader sees: the tenants app (above audit) answers which tenants a user belongs to.

TenantsConfig.ready() registers its answer; audit never imports tenants. Until something registers,
a user belongs to no tenant here: they see their own actions only (fail closed).
"""

from collections.abc import Callable

TENANTS_OF: dict[str, Callable[[object], set[int]]] = {}


def tenants_of(user) -> set[int]:
    """Ids of the tenants every registered answer says the user belongs to."""
    return set().union(*(answer(user) for answer in list(TENANTS_OF.values())))
