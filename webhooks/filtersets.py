"""Filter sets for the webhooks API."""

import django_filters

from core import filters
from webhooks.choices import DeliveryState, EventType
from webhooks.models import Delivery, Webhook


class WebhookFilterSet(filters.FilterSet):
    class Meta:
        model = Webhook
        fields = ["tenant", "name", "enabled"]


class DeliveryFilterSet(filters.FilterSet):
    state = django_filters.ChoiceFilter(choices=DeliveryState.choices)
    event_type = django_filters.ChoiceFilter(choices=EventType.choices)

    class Meta:
        model = Delivery
        fields = ["webhook", "state", "event_type"]
