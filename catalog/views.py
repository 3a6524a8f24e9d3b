"""Catalog pages: the items a user may request from, their trade-offs and what the site offers; admins publish."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render

from catalog import services
from catalog.forms import ItemForm, RequestForm, item_initial
from catalog.models import CatalogItem
from core.errors import NotFound, ServiceError
from core.paging import paginate
from tenants import advice, offers
from tenants.access import is_site_admin

PER_PAGE = 24  # cards, a few screens: a site with hundreds of items pages instead of drawing them all


def _item(user, pk) -> CatalogItem:
    """An item the user may not see is a 404, exactly like a missing one."""
    return get_object_or_404(services.visible_items(user), pk=pk)


def _require_admin(user) -> None:
    if not is_site_admin(user):
        raise Http404("No such page.")


def _profiles(site_offers, *keep: str) -> list[str]:
    names = [p["name"] for site in site_offers for p in site.vgpu_profiles]
    return names + [k for k in keep if k and k not in names]


@login_required
def item_list(request):
    """Every item the user may request from (admins also see retired ones)."""
    pager = paginate(request, services.visible_items(request.user).order_by("slug"), PER_PAGE)
    return render(request, "catalog/item_list.html", {"pager": pager, "is_admin": is_site_admin(request.user)})


@login_required
def item_detail(request, pk):
    """An item's description, trade-offs and the site's view of it; researchers request from here (POST)."""
    item = _item(request.user, pk)
    version = item.current
    site_offers = offers.site_offers()
    form = RequestForm(request.POST or None, user=request.user, rules=version.rules, site_offers=site_offers)
    if request.method == "POST" and form.is_valid():
        try:
            cluster = services.request_cluster(item, form.cleaned_data["tenant"], request.user, form.service_data(),
                                               submit="submit" in request.POST)  # fmt: skip
        except NotFound:
            raise Http404("No such catalog item.") from None
        except ServiceError as exc:
            detail = exc.detail if isinstance(exc.detail, list) else [exc.detail]
            for message in detail:
                form.add_error(exc.field if exc.field in form.fields else None, message)
        else:
            messages.success(request, f"Cluster request {cluster} is {cluster.get_state_display().lower()}.")
            return redirect("frontend:cluster-detail", pk=cluster.pk)
    return render(request, "catalog/item_detail.html", _detail_context(request, item, form))


def _detail_context(request, item: CatalogItem, form) -> dict:
    version = item.current
    preset = services.preset_cluster(version.rules)
    return {
        "item": item, "version": version, "form": form, "is_admin": is_site_admin(request.user),
        "rules": [(name, rule) for name, rule in version.rules.items()],
        "notes": advice.notes(preset.workload_class, preset.interconnect, preset.network_mode, preset.data_path,
                              preset.gpu_mode),
        "site": services.site_view(version),
        "versions": item.versions.order_by("-number") if is_site_admin(request.user) else [],
    }  # fmt: skip


@login_required
def item_create(request):
    """Publish a new item (site admins)."""
    _require_admin(request.user)
    site_offers = offers.site_offers()
    form = ItemForm(request.POST or None, profiles=_profiles(site_offers))
    if request.method == "POST" and form.is_valid():
        try:
            item = services.create_item(request.user, form.service_data())
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.detail)
        else:
            messages.success(request, f"Catalog item {item} published (version 1).")
            return redirect("catalog:item-detail", pk=item.pk)
    return render(request, "catalog/item_form.html", {"form": form, "item": None, "site_offers": site_offers})


@login_required
def item_edit(request, pk):
    """Change an item (site admins): new content becomes a new version; existing clusters keep theirs."""
    _require_admin(request.user)
    item = get_object_or_404(CatalogItem.objects.select_related("current"), pk=pk)
    site_offers = offers.site_offers()
    profiles = _profiles(site_offers, *(item.current.rules.get("vgpu_profile", {}).get("choices", [])),
                         item.current.rules.get("vgpu_profile", {}).get("value", ""))  # fmt: skip
    form = ItemForm(request.POST or None, initial=item_initial(item), profiles=profiles, item=item)
    if request.method == "POST" and form.is_valid():
        try:
            item = services.update_item(item, request.user, form.service_data())
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.detail)
        else:
            messages.success(request, f"Catalog item {item} saved (version {item.current.number}).")
            return redirect("catalog:item-detail", pk=item.pk)
    return render(request, "catalog/item_form.html", {"form": form, "item": item, "site_offers": site_offers})
