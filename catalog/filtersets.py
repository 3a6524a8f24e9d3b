"""Filter sets for the catalog API and pages."""

import django_filters

from catalog.choices import Visibility
from catalog.models import CatalogItem, ClusterOrigin
from core import filters


class CatalogItemFilterSet(filters.FilterSet):
    visibility = django_filters.ChoiceFilter(choices=Visibility.choices)
    q = django_filters.CharFilter(field_name="current__name", lookup_expr="icontains")

    class Meta:
        model = CatalogItem
        fields = ["slug", "active", "visibility"]


class ClusterOriginFilterSet(filters.FilterSet):
    item = filters.IntegerFilter(field_name="version__item")

    class Meta:
        model = ClusterOrigin
        fields = ["cluster", "item"]
