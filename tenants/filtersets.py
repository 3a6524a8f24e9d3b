"""Filter sets for the tenants API and list pages."""

import django_filters

from core import filters
from tenants.choices import ClusterState, Interconnect, NetworkMode, Role, WorkloadClass
from tenants.models import Membership, Quota, Tenant, VirtualCluster


class TenantFilterSet(filters.FilterSet):
    q = django_filters.CharFilter(field_name="name", lookup_expr="icontains")

    class Meta:
        model = Tenant
        fields = ["slug"]


class MembershipFilterSet(filters.FilterSet):
    role = django_filters.ChoiceFilter(choices=Role.choices)

    class Meta:
        model = Membership
        fields = ["tenant", "role"]


class QuotaFilterSet(filters.FilterSet):
    class Meta:
        model = Quota
        fields = ["tenant"]


class ClusterFilterSet(filters.FilterSet):
    state = django_filters.MultipleChoiceFilter(choices=ClusterState.choices)
    workload_class = django_filters.ChoiceFilter(choices=WorkloadClass.choices)
    interconnect = django_filters.ChoiceFilter(choices=Interconnect.choices)
    network_mode = django_filters.ChoiceFilter(choices=NetworkMode.choices)
    q = django_filters.CharFilter(field_name="name", lookup_expr="icontains")

    class Meta:
        model = VirtualCluster
        fields = ["tenant", "state", "workload_class", "interconnect", "network_mode"]
