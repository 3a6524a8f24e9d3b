"""A cluster requested from a catalog item keeps that item version's bounds for every later change.

The item's rules (what researchers may change, within which bounds) and its lease limit hold for a draft
edit, a resize and a lease extension just as for the request itself; otherwise "from the catalog,
version 1" would tell approvers nothing. The tenants services call these checks through tenants.hooks,
where CatalogConfig.ready() registers them (tenants never imports the catalog).
"""

import datetime

from django.utils import timezone

from catalog import fields as grammar
from catalog.models import ClusterOrigin
from core.errors import InvalidRequest


def _origin(cluster) -> ClusterOrigin | None:
    return ClusterOrigin.objects.select_related("version__item").filter(cluster_id=cluster.pk).first()


def limit(origin: ClusterOrigin) -> datetime.date | None:
    """The last day the item version lets its clusters live: the request's day plus its max_lease_days."""
    days = origin.version.max_lease_days
    return timezone.localdate(origin.created) + datetime.timedelta(days=days) if days else None


def _named(origin: ClusterOrigin) -> str:
    return f"catalog item {origin.version.item.slug} version {origin.version.number}"


def check_change(cluster, changes: dict) -> None:
    """Refuse (400, naming the item, its version and the bound) a change outside the item version's rules."""
    origin = _origin(cluster)
    if origin is None:
        return
    shaped = {name: value for name, value in changes.items() if name in grammar.FIELDS}
    try:
        grammar.apply(origin.version.rules, shaped)
    except InvalidRequest as exc:
        raise InvalidRequest(f"This cluster comes from {_named(origin)}: {exc.detail}", exc.field) from None
    latest, lease_end = limit(origin), changes.get("lease_end")
    if latest and lease_end and lease_end > latest:
        raise InvalidRequest(
            f"This cluster comes from {_named(origin)}, whose clusters live at most "
            f"{origin.version.max_lease_days} days: to {latest} at the latest.",
            "lease_end",
        )


def lease_limit(cluster) -> tuple[datetime.date, str] | None:
    """The item version's last lease day, and why (for the lease form)."""
    origin = _origin(cluster)
    latest = limit(origin) if origin else None
    if latest is None:
        return None
    return latest, f"{_named(origin)} lives at most {origin.version.max_lease_days} days"
