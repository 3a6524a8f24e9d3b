"""Filter set for the token list."""

import django_filters

from core import filters
from users.models import APIToken


class TokenFilterSet(filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")
    revoked = filters.BooleanFilter(field_name="revoked_at", lookup_expr="isnull", exclude=True)

    class Meta:
        model = APIToken
        fields = ["name"]
