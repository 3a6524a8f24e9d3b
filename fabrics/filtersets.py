"""Filter sets for the fabrics API."""

from django import forms
from drf_spectacular.utils import extend_schema_field

from core import filters
from fabrics.models import Fabric, FabricJoinToken, PartitionKey, SharedPort


class PresentIntegerField(filters.StrictIntegerField):
    """A whole number when the parameter is given: `?fabric=` is a 400, not "no filter" (the schema says integer)."""

    def to_python(self, value):
        if value == "":
            raise forms.ValidationError("Use a whole number.", code="invalid")
        return super().to_python(value)


@extend_schema_field({"type": "integer", "minimum": -filters.INTEGER_MAX, "maximum": filters.INTEGER_MAX})
class Ref(filters.IntegerFilter):
    field_class = PresentIntegerField


class FabricFilterSet(filters.FilterSet):
    class Meta:
        model = Fabric
        fields = ["name", "kind"]


class SharedPortFilterSet(filters.FilterSet):
    fabric = Ref(field_name="fabric")

    class Meta:
        model = SharedPort
        fields = ["fabric"]


class PartitionFilterSet(filters.FilterSet):
    fabric = Ref(field_name="fabric")
    tenant = Ref(field_name="tenant")

    class Meta:
        model = PartitionKey
        fields = ["fabric", "tenant", "state"]


class FabricJoinTokenFilterSet(filters.FilterSet):
    fabric = Ref(field_name="fabric")

    class Meta:
        model = FabricJoinToken
        fields = ["fabric"]
