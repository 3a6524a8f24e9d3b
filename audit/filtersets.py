"""Filter set for searching the audit log (API and UI)."""

import django_filters
from django.db.models import Q

from audit.context import ActorKind
from audit.models import AuditEvent
from core import filters


class AuditEventFilterSet(filters.FilterSet):
    q = django_filters.CharFilter(method="search", label="Search")
    actor = django_filters.CharFilter(field_name="actor_label", lookup_expr="icontains")
    actor_kind = django_filters.ChoiceFilter(choices=ActorKind.choices)
    action = django_filters.CharFilter(lookup_expr="istartswith")
    object_type = django_filters.CharFilter()
    object_id = django_filters.CharFilter()
    request_id = django_filters.CharFilter()
    client_request_id = django_filters.CharFilter()
    since = filters.IsoDateTimeFilter(field_name="created", lookup_expr="gte")
    until = filters.IsoDateTimeFilter(field_name="created", lookup_expr="lt")
    tenant = filters.IntegerFilter(field_name="tenant_id")

    class Meta:
        model = AuditEvent
        fields = ["actor_kind", "action", "object_type", "object_id", "request_id"]

    def search(self, queryset, name, value):
        """Match the text against actor, action, object and message."""
        return queryset.filter(
            Q(actor_label__icontains=value)
            | Q(action__icontains=value)
            | Q(object_repr__icontains=value)
            | Q(message__icontains=value)
            | Q(request_id=value)
            | Q(client_request_id=value)
        )
