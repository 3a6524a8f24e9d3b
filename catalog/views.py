"""Catalog pages: the items a user may request from, their trade-offs and what the site offers; admins publish."""

from django.contrib import messages
from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect

from catalog import services
from catalog.forms import ItemForm, RequestForm, item_initial, preset_rows
from catalog.models import CatalogItem
from core.paging import paginate
from core.views import ObjectEditView, ObjectListView, attach_detail
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


class ItemListView(ObjectListView):
    """Every item the user may request from (admins also see retired ones)."""

    template_name = "catalog/item_list.html"
    per_page = PER_PAGE

    def get_queryset(self, request):
        return services.visible_items(request.user).order_by("slug")

    def get_extra_context(self, request, pager) -> dict:
        return {"is_admin": is_site_admin(request.user)}


class ItemDetailView(ObjectEditView):
    """An item's description, trade-offs and the site's view of it; researchers request from here (POST)."""

    template_name = "catalog/item_detail.html"

    def get_form(self, request, pk):
        self.item = _item(request.user, pk)
        rules, site_offers = self.item.current.rules, offers.site_offers()
        return RequestForm(request.POST or None, user=request.user, rules=rules, site_offers=site_offers)

    def save(self, request, form):
        return services.request_cluster(self.item, form.cleaned_data["tenant"], request.user, form.service_data(),
                                        submit="submit" in request.POST)  # fmt: skip

    form_error = staticmethod(attach_detail)

    def saved(self, request, cluster, pk):
        messages.success(request, f"Cluster request {cluster} is {cluster.get_state_display().lower()}.")
        return redirect("frontend:cluster-detail", pk=cluster.pk)

    def get_context(self, request, form=None, pk=None) -> dict:
        return _detail_context(request, self.item, form)


def _detail_context(request, item: CatalogItem, form) -> dict:
    version = item.current
    preset = services.preset_cluster(version.rules)
    return {
        "item": item, "version": version, "form": form, "is_admin": is_site_admin(request.user),
        "rules": preset_rows(version.rules),
        "notes": advice.notes(preset.workload_class, preset.interconnect, preset.network_mode, preset.data_path,
                              preset.gpu_mode),
        "site": services.site_view(version),
        "versions": paginate(request, _versions(item), param="versions") if is_site_admin(request.user) else None,
    }  # fmt: skip


def _versions(item: CatalogItem):
    """The item's versions, newest first, with their author and requests counted in the same query."""
    versions = item.versions.select_related("created_by").annotate(request_count=Count("requests"))
    return versions.order_by("-number")


class ItemCreateView(ObjectEditView):
    """Publish a new item (site admins)."""

    template_name = "catalog/item_form.html"
    item = None

    def get_form(self, request, **kwargs):
        _require_admin(request.user)
        self.site_offers = offers.site_offers()
        return ItemForm(request.POST or None, profiles=_profiles(self.site_offers))

    def save(self, request, form):
        return services.create_item(request.user, form.service_data())

    form_error = staticmethod(attach_detail)

    def saved(self, request, item, **kwargs):
        messages.success(request, f"Catalog item {item} published (version 1).")
        return redirect("catalog:item-detail", pk=item.pk)

    def get_context(self, request, form=None, **kwargs) -> dict:
        return {"form": form, "item": self.item, "site_offers": self.site_offers}


class ItemEditView(ItemCreateView):
    """Change an item (site admins): new content becomes a new version; existing clusters keep theirs."""

    def get_form(self, request, pk):
        _require_admin(request.user)
        item = self.item = get_object_or_404(CatalogItem.objects.select_related("current"), pk=pk)
        self.site_offers = offers.site_offers()
        profiles = _profiles(self.site_offers, *(item.current.rules.get("vgpu_profile", {}).get("choices", [])),
                             item.current.rules.get("vgpu_profile", {}).get("value", ""))  # fmt: skip
        return ItemForm(request.POST or None, initial=item_initial(item), profiles=profiles, item=item)

    def save(self, request, form):
        return services.update_item(self.item, request.user, form.service_data())

    def saved(self, request, item, **kwargs):
        messages.success(request, f"Catalog item {item} saved (version {item.current.number}).")
        return redirect("catalog:item-detail", pk=item.pk)
