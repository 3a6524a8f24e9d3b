"""Filter sets for the nsx API."""

import django_filters

from core import filters
from nsx.choices import ObjectKind, Realization
from nsx.models import NsxObject


class NsxObjectFilterSet(filters.FilterSet):
    kind = django_filters.ChoiceFilter(choices=ObjectKind.choices)
    state = django_filters.ChoiceFilter(choices=Realization.choices)

    class Meta:
        model = NsxObject
        fields = ["manager", "tenant", "segment", "kind", "state"]
