"""`locked(instance)`: the row as it is now, locked for the rest of the caller's transaction.

A view loads an object before the service's transaction begins. A service that applies the request's
fields to that copy and saves it writes every column from the copy, so a change committed in between is
silently undone and the audit's "before" describes a state that never existed. Services re-read the row
under `SELECT ... FOR UPDATE` first and apply the request's fields to that.
"""

from typing import TypeVar, overload

from django.db import models, transaction

from core.errors import NotFound

M = TypeVar("M", bound=models.Model)


@overload
def locked(instance: M) -> M: ...
@overload
def locked(instance: None) -> None: ...
def locked(instance: M | None) -> M | None:
    """The current row of `instance` locked until commit (None stays None); needs an open transaction."""
    if instance is None:
        return None
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("locked() outside a transaction would release the lock at once")
    row = type(instance)._default_manager.select_for_update(of=("self",)).filter(pk=instance.pk).first()
    if row is None:  # deleted by a request that committed meanwhile
        raise NotFound(f"The {instance._meta.verbose_name} was deleted meanwhile.")
    return row
