"""Filter sets for the fabrics API."""

from fabrics.models import Fabric, FabricJoinToken, PartitionKey, SharedPort
from portal import filters


class FabricFilterSet(filters.FilterSet):
    class Meta:
        model = Fabric
        fields = ["name", "kind"]


class SharedPortFilterSet(filters.FilterSet):
    class Meta:
        model = SharedPort
        fields = ["fabric"]


class PartitionFilterSet(filters.FilterSet):
    class Meta:
        model = PartitionKey
        fields = ["fabric", "tenant", "state"]


class FabricJoinTokenFilterSet(filters.FilterSet):
    class Meta:
        model = FabricJoinToken
        fields = ["fabric"]
