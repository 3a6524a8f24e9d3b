"""API serializers of the catalog; writes go through catalog.services."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from catalog import fields as grammar
from catalog.choices import Visibility
from catalog.models import CatalogItem, CatalogItemVersion, ClusterOrigin
from catalog.services import site_view
from tenants.access import tenant_ids
from tenants.models import Tenant, dns_label


@extend_schema_field(grammar.rules_schema())
class RulesField(serializers.JSONField):
    """An item's rules (catalog.fields checks them); the schema states their grammar."""


@extend_schema_field(grammar.values_schema())
class ValuesField(serializers.JSONField):
    """A request's own values; the schema states their types, the item bounds them."""


class CatalogItemSerializer(serializers.ModelSerializer):
    """An item with its current version's content; changing the content makes a new version."""

    name = serializers.CharField(source="current.name", max_length=100)
    summary = serializers.CharField(source="current.summary", max_length=200, required=False, allow_blank=True)
    description = serializers.CharField(
        source="current.description", max_length=8000, required=False, allow_blank=True,
        help_text="What the item is for and its trade-offs",
    )  # fmt: skip
    rules = RulesField(
        source="current.rules", required=False,
        help_text='Per request field: {"value": preset, "editable": bool, "min"/"max" or "choices"}',
    )  # fmt: skip
    max_lease_days = serializers.IntegerField(
        source="current.max_lease_days", min_value=1, max_value=3650, allow_null=True, required=False
    )
    version = serializers.IntegerField(source="current.number", read_only=True)
    tenants = serializers.PrimaryKeyRelatedField(many=True, queryset=Tenant.objects.all(), required=False)

    class Meta:
        model = CatalogItem
        fields = ["id", "slug", "name", "summary", "description", "rules", "max_lease_days", "visibility", "tenants",
                  "active", "version", "created"]  # fmt: skip
        read_only_fields = ["created"]
        validators = []  # the service names a taken slug

    def to_representation(self, item):
        data = super().to_representation(item)
        if not self.context["request"].user.is_staff:
            data.pop("tenants")  # researchers never learn which other tenants see an item
        return data


class CatalogItemCreateSerializer(CatalogItemSerializer):
    """A new item: its rules are required (they preset the request), and an item shown to listed tenants lists one."""

    rules = RulesField(source="current.rules", help_text=CatalogItemSerializer().fields["rules"].help_text)
    schema_variants = (
        {"properties": {"visibility": {"enum": [Visibility.ALL.value]}}},
        {"properties": {"visibility": {"enum": [Visibility.TENANTS.value]}, "tenants": {"minItems": 1}},
         "required": ["visibility", "tenants"]},
    )  # fmt: skip


class CatalogItemDetailSerializer(CatalogItemSerializer):
    """One item with what the site says of it: each offered value available or why not (from PostgreSQL)."""

    site = serializers.SerializerMethodField()

    class Meta(CatalogItemSerializer.Meta):
        fields = [*CatalogItemSerializer.Meta.fields, "site"]

    def get_site(self, item) -> dict:
        return site_view(item.current) if item.current else {}


def flatten(validated: dict) -> dict:
    """The service's plain fields from the serializer's nested `current` ones."""
    data = dict(validated)
    return {**data.pop("current", {}), **data}


class CatalogItemVersionSerializer(serializers.ModelSerializer):
    rules = RulesField(read_only=True)
    created_by = serializers.CharField(source="created_by.username", read_only=True)

    class Meta:
        model = CatalogItemVersion
        fields = ["number", "name", "summary", "description", "rules", "max_lease_days", "created", "created_by"]
        read_only_fields = fields


class CatalogRequestSerializer(serializers.Serializer):
    """A cluster request from an item: the researcher's own fields plus values the item lets them change."""

    # Scoped to the user's tenants in get_fields: another tenant's id and a missing one get the same answer.
    tenant = serializers.PrimaryKeyRelatedField(queryset=Tenant.objects.none(),
                                                error_messages={"does_not_exist": "No such tenant."})  # fmt: skip
    name = serializers.CharField(max_length=63, validators=[dns_label])
    lease_end = serializers.DateField()
    justification = serializers.CharField(max_length=4000)
    values = ValuesField(required=False, help_text="Request fields the item lets you change")
    submit = serializers.BooleanField(default=False, help_text="Submit at once")

    def get_fields(self):
        """The tenants the user belongs to (site admins: every tenant); any other id is unknown."""
        fields = super().get_fields()
        request = self.context.get("request")
        if request is not None:
            user = request.user
            fields["tenant"].queryset = Tenant.objects.all() if user.is_staff else \
                Tenant.objects.filter(pk__in=tenant_ids(user))  # fmt: skip
        return fields

    def validate_values(self, values):
        if not isinstance(values, dict):
            raise serializers.ValidationError("Give an object of request field to value.")
        return values


class ClusterOriginSerializer(serializers.ModelSerializer):
    tenant = serializers.IntegerField(source="cluster.tenant_id", read_only=True)
    item = serializers.IntegerField(source="version.item_id", read_only=True)
    item_slug = serializers.CharField(source="version.item.slug", read_only=True)
    version = serializers.IntegerField(source="version.number", read_only=True)

    class Meta:
        model = ClusterOrigin
        fields = ["id", "cluster", "tenant", "item", "item_slug", "version", "values", "created"]
        read_only_fields = fields
