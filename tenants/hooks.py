"""Checks apps above tenants add to its services, each registered from that app's AppConfig.ready().

The tenants services call them explicitly, in registration order; nothing here imports an app above.
- change checks: before a cluster's shape or lease changes (a draft edit, a resize, a lease extension), with
  the fields it would get; a check raises a ServiceError to refuse (catalog: its item version's bounds).
- membership checks: inside the transaction that adds a user to a tenant, before the row exists; a check
  raises a ServiceError to refuse (agents: one tenant network per user and node).
- lease limits: the latest lease end a cluster may ever get, even with an approved extension, as
  (date, why), or None (catalog: "ml-training version 1 lives at most 120 days").
"""

import datetime
from collections.abc import Callable

ChangeCheck = Callable[[object, dict], None]  # (cluster, changes) -> None, or raise a ServiceError
MembershipCheck = Callable[[object, object], None]  # (tenant, user) -> None, or raise a ServiceError
LeaseLimit = Callable[[object], tuple[datetime.date, str] | None]  # cluster -> (last day, why) or None

CHANGE_CHECKS: dict[str, ChangeCheck] = {}
MEMBERSHIP_CHECKS: dict[str, MembershipCheck] = {}
LEASE_LIMITS: dict[str, LeaseLimit] = {}


def check_change(cluster, changes: dict) -> None:
    """Run every change check on a cluster about to get `changes` (the first refusal raises)."""
    for check in list(CHANGE_CHECKS.values()):
        check(cluster, changes)


def check_membership(tenant, user) -> None:
    """Run every membership check on a user about to join a tenant (the first refusal raises)."""
    for check in list(MEMBERSHIP_CHECKS.values()):
        check(tenant, user)


def lease_limits(cluster) -> list[tuple[datetime.date, str]]:
    """Every bound on the cluster's lease end that an app answers."""
    return [answer for limit in list(LEASE_LIMITS.values()) if (answer := limit(cluster))]
