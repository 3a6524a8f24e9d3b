"""API serializers of the netpolicy app (named as NetBox names them)."""

from django.db.models import Q
from rest_framework import relations, serializers

from core.addresses import AddressError, parse_network
from core.fields import AddressField, NetworkField, NetworkListField
from core.openapi import IPV4_NETWORK, IPV6_NETWORK, OCTET
from netpolicy import node_pools, realization
from netpolicy.allocation import pool_usage
from netpolicy.choices import VLAN_MAX, VLAN_MIN, VNI_MAX, VNI_MIN, PoolKind, Protocol
from netpolicy.models import FirewallPolicy, FirewallRule, Group, Pool, Segment, Service
from tenants.access import tenant_ids
from tenants.models import Tenant


class TenantField(serializers.PrimaryKeyRelatedField):
    """A tenant reference that only shows the user's own tenants (others do not exist)."""

    def get_queryset(self):
        request = self.context.get("request")
        if request is None or request.user.is_staff:
            return Tenant.objects.all()
        return Tenant.objects.filter(pk__in=tenant_ids(request.user))


class NodePoolField(serializers.PrimaryKeyRelatedField):
    """A Linux node pool by id: agents owns the pools (netpolicy.node_pools), netpolicy only names one."""

    @property
    def queryset(self):
        return node_pools.queryset()

    @queryset.setter
    def queryset(self, value) -> None:
        """RelatedField.__init__ assigns it; the pools' owner answers instead."""


class _PageIds(list):
    """Ids read for a page of rows (attach_member_ids): shown as they are."""


class ManyIdsField(serializers.ManyRelatedField):
    """A to-many reference read from the ids attached to the row when a list view did, else the relation.

    A related manager per row and relation cost a 50-rule page more than its own query (12 of 17 ms).
    """

    def get_attribute(self, instance):
        ids = getattr(instance, "member_ids", None)
        if ids is not None and self.source in ids:
            return _PageIds(ids[self.source])
        return super().get_attribute(instance)

    def to_representation(self, iterable):
        return list(iterable) if isinstance(iterable, _PageIds) else super().to_representation(iterable)


class ManyIds:
    """Mixin for a related field whose many=True form is a ManyIdsField."""

    @classmethod
    def many_init(cls, *args, **kwargs):
        many = {key: value for key, value in kwargs.items() if key in relations.MANY_RELATION_KWARGS}
        return ManyIdsField(child_relation=cls(*args, **kwargs), **many)


class IdField(ManyIds, serializers.PrimaryKeyRelatedField):
    """A primary-key reference (ModelSerializer's default) that reads attached ids when many."""


class VisibleField(ManyIds, serializers.PrimaryKeyRelatedField):
    """A reference to an object of the user's tenants or of the site: another tenant's does not exist for them.

    `tenant_field` names the object's tenant; `site` says whether site-wide objects (tenant null) qualify.
    """

    def __init__(self, model, tenant_field: str = "tenant", site: bool = True, **kwargs):
        self.model, self.tenant_field, self.site = model, tenant_field, site
        super().__init__(**kwargs)

    def get_queryset(self):
        queryset = self.model.objects.all()
        request = self.context.get("request")
        if request is None or request.user.is_staff:
            return queryset
        visible = Q(**{f"{self.tenant_field}__in": tenant_ids(request.user)})
        if self.site:
            visible |= Q(**{f"{self.tenant_field}__isnull": True})
        return queryset.filter(visible)


NULL = {"nullable": True, "enum": [None]}  # absent or null


def _id_pool(kind: str, low: int, high: int) -> dict:
    ids = {"type": "integer", "minimum": low, "maximum": high}
    nulls = dict.fromkeys(("cidr", "default_prefix_length", "min_prefix_length"), NULL)
    return {"properties": {"kind": {"enum": [kind]}, "first": ids, "last": ids, **nulls},
            "required": ["kind", "first", "last"]}  # fmt: skip


def _prefix_pool(kind: str, pattern: str, shortest: int, longest: int) -> dict:
    length = {"type": "integer", "nullable": True, "minimum": shortest, "maximum": longest}
    return {
        "properties": {"kind": {"enum": [kind]}, "cidr": {"type": "string", "pattern": pattern}, "first": NULL,
                       "last": NULL, "default_prefix_length": length, "min_prefix_length": length},
        "required": ["kind", "cidr"],
    }  # fmt: skip


# A CGNAT pool lies inside 100.64.0.0/10.
CGNAT_NETWORK = rf"^100\.(6[4-9]|[7-9][0-9]|1[01][0-9]|12[0-7])\.{OCTET}\.{OCTET}/(1[0-9]|2[0-9]|3[0-2])$"


class PoolSerializer(serializers.ModelSerializer):
    """A pool: VLAN and VNI pools take first and last, address pools a cidr and prefix lengths (by kind).

    What no schema states: first <= last, no host bits, prefix lengths from the cidr's own, no overlap.
    """

    schema_variants = (
        _id_pool(PoolKind.VLAN.value, VLAN_MIN, VLAN_MAX), _id_pool(PoolKind.VNI.value, VNI_MIN, VNI_MAX),
        _prefix_pool(PoolKind.IPV4.value, IPV4_NETWORK, 0, 32), _prefix_pool(PoolKind.IPV6.value, IPV6_NETWORK, 0, 128),
        _prefix_pool(PoolKind.CGNAT.value, CGNAT_NETWORK, 10, 32),
    )  # fmt: skip
    usage = serializers.SerializerMethodField()
    tenant = TenantField(required=False, allow_null=True)
    cidr = NetworkField(required=False, allow_null=True, help_text="Supernet, e.g. 10.64.0.0/16")

    class Meta:
        model = Pool
        fields = [
            "id",
            "name",
            "kind",
            "first",
            "last",
            "cidr",
            "default_prefix_length",
            "min_prefix_length",
            "routing_domain",
            "tenant",
            "description",
            "usage",
            "created",
        ]
        read_only_fields = ["created"]

    def get_usage(self, pool) -> dict:
        return pool_usage(pool)


class SegmentSerializer(serializers.ModelSerializer):
    """A segment; ids and subnet are optional on create (next-free when omitted)."""

    tenant = TenantField()
    id_pool = VisibleField(Pool, required=False, allow_null=True)
    prefix_pool = VisibleField(Pool, required=False, allow_null=True)
    vlan_id = serializers.IntegerField(required=False, allow_null=True, min_value=VLAN_MIN, max_value=VLAN_MAX)
    vni = serializers.IntegerField(required=False, allow_null=True, min_value=VNI_MIN, max_value=VNI_MAX)
    subnet = NetworkField(required=False, allow_blank=True)
    gateway = AddressField(required=False, allow_blank=True)
    node_pool = NodePoolField(required=False, allow_null=True, help_text="Linux node pool realizing an overlay")
    prefix_length = serializers.IntegerField(required=False, write_only=True, min_value=1, max_value=128)
    effective_mtu = serializers.IntegerField(read_only=True)
    mtu_warning = serializers.CharField(read_only=True)
    # Plain text in the schema: a second enum named "state" would collide with the clusters'.
    state = serializers.CharField(
        read_only=True, help_text="requested, approved, provisioning, ready, error, rejected or retired"
    )

    class Meta:
        model = Segment
        fields = [
            "id",
            "tenant",
            "name",
            "kind",
            "id_pool",
            "vlan_id",
            "vni",
            "prefix_pool",
            "subnet",
            "prefix_length",
            "gateway",
            "routing_domain",
            "mtu",
            "effective_mtu",
            "mtu_warning",
            "data_path",
            "vsphere_cluster",
            "node_pool",
            "state",
            "generation",
            "observed_generation",
            "created",
            "updated",
        ]
        read_only_fields = ["routing_domain", "generation", "observed_generation", "created", "updated"]
        validators = []  # collisions are checked by the service and the database


class SegmentDetailSerializer(SegmentSerializer):
    """One segment, with what it still waits for before it is ready (not in lists: it costs queries per row)."""

    waiting_for = serializers.SerializerMethodField(
        help_text="Why a segment on a node pool is not ready yet, e.g. its nodes' InfiniBand ports not yet in the "
        "tenant's partition; empty when it waits for nothing beyond its nodes"
    )

    class Meta(SegmentSerializer.Meta):
        fields = [*SegmentSerializer.Meta.fields, "waiting_for"]

    def get_waiting_for(self, segment) -> list[str]:
        return realization.waiting_for(segment)


class ServiceSerializer(serializers.ModelSerializer):
    protocol = serializers.ChoiceField(choices=Protocol.choices)
    # Not trimmed: a port list with whitespace is refused, never silently rewritten.
    ports = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        trim_whitespace=False,
        help_text="Comma-separated ports and ranges, e.g. 22,6817-6819",
    )

    class Meta:
        model = Service
        fields = ["id", "name", "protocol", "ports", "description"]


class GroupSerializer(serializers.ModelSerializer):
    tenant = TenantField(required=False, allow_null=True)
    segment = VisibleField(Segment, site=False, required=False, allow_null=True)
    cidrs = NetworkListField(required=False, max_length=256, help_text="Canonical networks, e.g. 10.0.0.0/24")

    class Meta:
        model = Group
        fields = ["id", "name", "tenant", "cidrs", "segment", "all_segments", "role", "description"]
        validators = []

    def validate_cidrs(self, value):
        """One message per bad value, naming it (core.addresses' grammar)."""
        try:
            return [str(parse_network(text)) for text in value]
        except AddressError as exc:
            raise serializers.ValidationError(str(exc)) from None


class FirewallPolicySerializer(serializers.ModelSerializer):
    tenant = TenantField(required=False, allow_null=True)
    scope = serializers.SerializerMethodField()

    class Meta:
        model = FirewallPolicy
        fields = ["id", "name", "tenant", "scope", "category", "sequence", "description", "created", "updated"]
        read_only_fields = ["created", "updated"]
        validators = []

    def get_scope(self, policy) -> str:
        return "tenant" if policy.tenant_id else "site"


class FirewallRuleSerializer(serializers.ModelSerializer):
    """A rule; `findings` lists analysis results about it (shadowed, redundant, exposes)."""

    serializer_related_field = IdField
    findings = serializers.SerializerMethodField()
    policy = VisibleField(FirewallPolicy)
    sources = VisibleField(Group, many=True, required=False, help_text="Groups; none: ANY")
    destinations = VisibleField(Group, many=True, required=False, help_text="Groups; none: ANY")

    class Meta:
        model = FirewallRule
        fields = [
            "id",
            "policy",
            "name",
            "sequence",
            "sources",
            "destinations",
            "services",
            "action",
            "direction",
            "logged",
            "enabled",
            "description",
            "findings",
            "created",
            "updated",
        ]
        read_only_fields = ["created", "updated"]
        validators = []

    def get_findings(self, rule) -> list[dict]:
        findings = self.context.get("findings")
        return findings.for_rule(rule.pk, rule.policy.tenant_id) if findings else []


class WhatIfSerializer(serializers.Serializer):
    source = AddressField()
    destination = AddressField()
    protocol = serializers.ChoiceField(choices=["tcp", "udp", "icmp"])
    port = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=65535)
