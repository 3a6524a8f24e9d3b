"""The only way the catalog changes: admins publish items (each change a new version), researchers request.

Requests go through tenants.services.create_cluster, so quota, the site's refusals and the approval
flow are exactly those of a request from the empty form; the catalog adds presets, bounds and provenance.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from audit.services import record, snapshot
from catalog import fields as grammar
from catalog.choices import Visibility
from catalog.models import CatalogItem, CatalogItemVersion, ClusterOrigin
from core.errors import Conflict, Forbidden, InvalidRequest, NotFound
from tenants import offers
from tenants import services as tenant_services
from tenants.access import is_site_admin, require_member, tenant_ids
from tenants.models import Tenant, VirtualCluster
from tenants.offers import Option

CONTENT = ("name", "summary", "description", "rules", "max_lease_days")
ITEM = ("slug", "visibility", "tenants", "active")
REQUEST = ("name", "lease_end", "justification")


def visible_items(user):
    """Items the user may see: every item for site admins, active items shown to one of their tenants otherwise."""
    items = CatalogItem.objects.select_related("current")
    if is_site_admin(user):
        return items
    mine = tenant_ids(user)
    shown = Q(visibility=Visibility.ALL) | Q(visibility=Visibility.TENANTS, tenants__in=mine)
    return items.filter(shown, active=True).distinct() if mine else items.none()


def visible_to_tenant(item: CatalogItem, tenant: Tenant) -> bool:
    """Whether the item is offered to this tenant at all."""
    return item.visibility == Visibility.ALL or item.tenants.filter(pk=tenant.pk).exists()


def create_item(user, data: dict) -> CatalogItem:
    """Publish an item with its first version (site admins)."""
    _require_admin(user)
    unknown = set(data) - set(CONTENT) - set(ITEM)
    if unknown:
        raise InvalidRequest(f"Unknown fields: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        if CatalogItem.objects.filter(slug=data.get("slug", "")).exists():
            raise InvalidRequest(f"A catalog item '{data['slug']}' exists already.", "slug")
        item = CatalogItem(**{k: data[k] for k in ("slug", "visibility", "active") if k in data})
        item.full_clean(exclude=["current"])
        item.save()
        _set_tenants(item, data)
        version = _new_version(item, user, {k: data.get(k) for k in CONTENT})
        record("catalog.create", item, after=_snapshot(item, version))
    return item


def update_item(item: CatalogItem, user, data: dict) -> CatalogItem:
    """Change an item: new content is a new version (requests keep theirs); visibility and state change in place."""
    _require_admin(user)
    unknown = set(data) - set(CONTENT) - set(ITEM)
    if unknown:
        raise InvalidRequest(f"Unknown fields: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        item = CatalogItem.objects.select_for_update(of=("self",)).select_related("current").get(pk=item.pk)
        before = _snapshot(item, item.current)
        if "slug" in data and data["slug"] != item.slug:
            raise InvalidRequest("A catalog item's slug never changes (requests and links name it).", "slug")
        for name in ("visibility", "active"):
            if name in data:
                setattr(item, name, data[name])
        item.full_clean(exclude=["current"])
        item.save(update_fields=["visibility", "active"])
        _set_tenants(item, data)
        content = {k: data[k] if k in data else _current(item, k) for k in CONTENT}
        if any(content[k] != _current(item, k) for k in CONTENT if k != "rules") or _rules_changed(item, content):
            _new_version(item, user, content)
        item.refresh_from_db()
        record("catalog.update", item, before=before, after=_snapshot(item, item.current))
    return item


def _require_admin(user) -> None:
    if not is_site_admin(user):
        raise Forbidden("Only site admins manage the catalog.")


def _current(item: CatalogItem, name: str):
    return getattr(item.current, name) if item.current else None


def _rules_changed(item: CatalogItem, content: dict) -> bool:
    return grammar.normalize(content["rules"] or {}) != (item.current.rules if item.current else {})


def _set_tenants(item: CatalogItem, data: dict) -> None:
    if "tenants" in data:
        item.tenants.set(data["tenants"])
    if item.visibility == Visibility.TENANTS and not item.tenants.exists():
        raise InvalidRequest("List at least one tenant, or show the item to every tenant.", "tenants")


def _new_version(item: CatalogItem, user, content: dict) -> CatalogItemVersion:
    """Validate the content and store it as the item's next version."""
    spec = grammar.normalize(content.get("rules") or {})
    _check_presets(spec)
    number = (item.versions.aggregate(n=Max("number"))["n"] or 0) + 1
    version = CatalogItemVersion(
        item=item, number=number, name=(content.get("name") or "").strip(), summary=content.get("summary") or "",
        description=content.get("description") or "", rules=spec, max_lease_days=content.get("max_lease_days"),
        created_by=user,
    )  # fmt: skip
    version.full_clean(exclude=["item", "created_by"])
    version.save()
    CatalogItem.objects.filter(pk=item.pk).update(current=version)
    item.current = version
    record("catalog.version", version, after=snapshot(version), message=f"{item.slug} version {number}")
    return version


def _check_presets(spec: dict) -> None:
    """The presets together must make a valid request (e.g. a vGPU profile goes with vGPU mode)."""
    cluster = preset_cluster(spec)
    try:
        tenant_services.check_request(cluster)
    except InvalidRequest as exc:
        raise InvalidRequest(f"The presets do not make a valid request: {exc.detail}", "rules") from None


def preset_cluster(spec: dict, values: dict | None = None) -> VirtualCluster:
    """An unsaved request with the item's presets (or the given values), for checks and the site's view."""
    data = grammar.apply(spec, {}) if values is None else values
    return VirtualCluster(tenant=Tenant(slug="catalog"), name="preview", **data)


def _snapshot(item: CatalogItem, version: CatalogItemVersion | None) -> dict:
    data = snapshot(item)
    data["tenants"] = sorted(item.tenants.values_list("slug", flat=True))
    data["version"] = version.number if version else None
    return data


# ---------------------------------------------------------------- requests


def request_cluster(item: CatalogItem, tenant: Tenant, user, data: dict, submit: bool = False) -> VirtualCluster:
    """Request a cluster from the item's current version; the request records it. Another tenant's item is a 404."""
    require_member(user, tenant)
    item = CatalogItem.objects.select_related("current").get(pk=item.pk)  # the newest version, not a stale one
    if not (visible_to_tenant(item, tenant) or is_site_admin(user)) or not (item.active or is_site_admin(user)):
        raise NotFound("No such catalog item.")
    if not item.active:
        raise Conflict("This catalog item is retired; choose another.")
    version = item.current
    unknown = set(data) - set(REQUEST) - {"values"}
    if unknown:
        raise InvalidRequest(f"Unknown fields: {', '.join(sorted(unknown))}")
    values = grammar.apply(version.rules, data.get("values") or {})
    _check_lease(version, data.get("lease_end"))
    with transaction.atomic():
        request = {**values, **{k: data.get(k) for k in REQUEST}}
        cluster = tenant_services.create_cluster(tenant, user, request, submit=submit)
        origin = ClusterOrigin.objects.create(cluster=cluster, version=version, values=values)
        record("catalog.request", origin, after=snapshot(origin), tenant=tenant,
               message=f"{cluster} from {item.slug} version {version.number}")  # fmt: skip
    return cluster


def _check_lease(version: CatalogItemVersion, lease_end) -> None:
    if not isinstance(lease_end, datetime.date):
        raise InvalidRequest("Give the lease end as a date.", "lease_end")
    if version.max_lease_days and lease_end > timezone.localdate() + datetime.timedelta(days=version.max_lease_days):
        raise InvalidRequest(f"This item's clusters live at most {version.max_lease_days} days.", "lease_end")


def site_view(version: CatalogItemVersion) -> dict:
    """What the site says of the item: each offered value available or why not, and refusals of the presets."""
    spec = version.rules
    sites = offers.site_offers()
    options = []
    for name in ("interconnect", "network_mode", "data_path", "gpu_mode", "vgpu_profile"):
        rule = spec.get(name) or {"value": grammar.default(name)}
        for value in rule.get("choices", [rule["value"]]):
            if name == "vgpu_profile" and not value:
                continue
            for site in sites:
                option = site.get(name, value)
                if option is None and name == "vgpu_profile":
                    option = Option(name, value, False, f"{site.site} offers no vGPU profile {value}")
                if option is not None:
                    options.append({"field": name, "value": value, "available": option.available,
                                    "detail": option.detail, "preset": value == rule["value"]})  # fmt: skip
    return {"options": options, "refusals": offers.refusals(preset_cluster(spec)), "sites": [s.site for s in sites]}
