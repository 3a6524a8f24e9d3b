"""Filter sets for the netpolicy API (named as NetBox names them)."""

import django_filters

from core import filters
from netpolicy.choices import Action, Category, PoolKind, SegmentKind, SegmentState
from netpolicy.models import FirewallPolicy, FirewallRule, Group, Pool, Segment, Service


class PoolFilterSet(filters.FilterSet):
    kind = django_filters.ChoiceFilter(choices=PoolKind.choices)

    class Meta:
        model = Pool
        fields = ["kind", "tenant", "routing_domain"]


class SegmentFilterSet(filters.FilterSet):
    kind = django_filters.ChoiceFilter(choices=SegmentKind.choices)
    state = django_filters.MultipleChoiceFilter(choices=SegmentState.choices)
    q = django_filters.CharFilter(field_name="name", lookup_expr="icontains")

    class Meta:
        model = Segment
        fields = ["tenant", "kind", "state", "vlan_id", "vni", "id_pool", "prefix_pool"]


class ServiceFilterSet(filters.FilterSet):
    class Meta:
        model = Service
        fields = ["name", "protocol"]


class GroupFilterSet(filters.FilterSet):
    site = filters.BooleanFilter(field_name="tenant", lookup_expr="isnull")

    class Meta:
        model = Group
        fields = ["tenant", "name", "role"]


class FirewallPolicyFilterSet(filters.FilterSet):
    category = django_filters.ChoiceFilter(choices=Category.choices)
    site = filters.BooleanFilter(field_name="tenant", lookup_expr="isnull")

    class Meta:
        model = FirewallPolicy
        fields = ["tenant", "category"]


class FirewallRuleFilterSet(filters.FilterSet):
    action = django_filters.ChoiceFilter(choices=Action.choices)
    tenant = filters.IntegerFilter(field_name="policy__tenant")

    class Meta:
        model = FirewallRule
        fields = ["policy", "action", "enabled"]
