"""Strict list filters: a query value the schema does not allow is a 400, never silently ignored.

django-filter's defaults are lenient where the API must not be: a boolean filter turns `?site=maybe` into
"no filter", a number filter takes `?tenant=0.5`, and a foreign-key filter answers an id it does not know
with 400 but one it knows (another tenant's) with an empty list, which tells a caller which ids exist.
Here a reference filter compares ids (unknown and foreign ids alike give an empty list) and booleans
and integers must be spelled as the schema says.
"""

import datetime
import re

import django_filters
from django import forms
from django.db import models
from django.utils import timezone
from django_filters.fields import IsoDateTimeField
from django_filters.filterset import FILTER_FOR_DBFIELD_DEFAULTS
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import exceptions

TRUE, FALSE = ("true", "True", "1"), ("false", "False", "0")
INTEGER_MAX = 10**18 - 1  # 18 digits: beyond every id, VLAN or VNI, and no overflow in PostgreSQL
INTEGER = re.compile(r"-?[0-9]{1,18}")


class StrictNullBooleanField(forms.NullBooleanField):
    """true/false (or 1/0); absent means no filter; anything else is invalid."""

    widget = forms.TextInput

    def to_python(self, value):
        if value in (None, ""):
            return None
        if value in TRUE or value is True:
            return True
        if value in FALSE or value is False:
            return False
        raise forms.ValidationError("Use true or false.", code="invalid")

    def validate(self, value):
        """Any of None, True and False is valid once parsed."""


class StrictIntegerField(forms.IntegerField):
    """ASCII digits with an optional minus: Django's own would take `2.0` (and `２`) as 2."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if not (isinstance(value, str) and INTEGER.fullmatch(value)):
            raise forms.ValidationError("Use a whole number.", code="invalid")
        return int(value)


class UtcIsoDateTimeField(IsoDateTimeField):
    """An ISO 8601 date-time handed to the database in UTC: PostgreSQL refuses offsets beyond +-15:59."""

    def to_python(self, value):
        parsed = super().to_python(value)
        if parsed is None or timezone.is_naive(parsed):
            return parsed
        try:
            return parsed.astimezone(datetime.UTC)
        except OverflowError:
            raise forms.ValidationError("That date-time is out of range.", code="invalid") from None


@extend_schema_field(OpenApiTypes.DATETIME)
class IsoDateTimeFilter(django_filters.IsoDateTimeFilter):
    field_class = UtcIsoDateTimeField


@extend_schema_field(OpenApiTypes.BOOL)
class BooleanFilter(django_filters.BooleanFilter):
    field_class = StrictNullBooleanField


@extend_schema_field({"type": "integer", "minimum": -INTEGER_MAX, "maximum": INTEGER_MAX})
class IntegerFilter(django_filters.NumberFilter):
    """An integer (an id, a VLAN, a VNI): `0.5` or `1e3` is invalid."""

    field_class = StrictIntegerField


class FilterSet(django_filters.FilterSet):
    """Every API filter set: references filter by id, booleans and integers are strict."""

    FILTER_DEFAULTS = {
        **FILTER_FOR_DBFIELD_DEFAULTS,
        models.ForeignKey: {"filter_class": IntegerFilter},
        models.OneToOneField: {"filter_class": IntegerFilter},
        models.BooleanField: {"filter_class": BooleanFilter},
        models.DateTimeField: {"filter_class": IsoDateTimeFilter},
        models.IntegerField: {"filter_class": IntegerFilter},
        models.PositiveIntegerField: {"filter_class": IntegerFilter},
        models.PositiveSmallIntegerField: {"filter_class": IntegerFilter},
        models.SmallIntegerField: {"filter_class": IntegerFilter},
        models.BigIntegerField: {"filter_class": IntegerFilter},
        models.AutoField: {"filter_class": IntegerFilter},
        models.BigAutoField: {"filter_class": IntegerFilter},
    }


class FilterBackend(DjangoFilterBackend):
    """The API's filter backend: viewsets that only list `filterset_fields` get the strict base too."""

    filterset_base = FilterSet

    def filter_queryset(self, request, queryset, view):
        """A single-valued filter given twice is a 400 (django-filter would silently take the last)."""
        filterset_class = self.get_filterset_class(view, queryset)
        for name, fltr in filterset_class.base_filters.items() if filterset_class else ():
            multiple = isinstance(fltr, django_filters.MultipleChoiceFilter)
            if not multiple and len(request.query_params.getlist(name)) > 1:
                raise exceptions.ValidationError({name: ["Give this filter once."]})
        return super().filter_queryset(request, queryset, view)
