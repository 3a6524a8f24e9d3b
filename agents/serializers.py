"""API serializers of the agents app; every value that reaches a node goes through the agent's grammar."""

import re

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from enclave_agent import fabric_wire, grammar, wire
from rest_framework import serializers

from agents import desired
from agents.choices import TenantNetworkStatus
from agents.models import JoinToken, Node, NodeCredential, NodePool, PoolDocument, PoolSubnet
from core.fields import NetworkField
from core.openapi import IPV4_NETWORK, IPV6_NETWORK

MAX_ERRORS = 200
MAX_ERROR_LENGTH = 2000
MAX_TENANTS_REPORTED = 100_000


def _grammar(check, value, *args):
    try:
        return check(value, *args)
    except grammar.GrammarError as exc:
        raise serializers.ValidationError(str(exc)) from None


def _ipv4_multicast(value: str) -> str:
    group = _grammar(grammar.multicast_group, value)
    if ":" in group:
        raise serializers.ValidationError("Use an IPv4 multicast group.")
    return group


class StrictObjectMixin:
    """Refuse keys a serializer does not know instead of dropping them silently."""

    refuses_unknown_fields = True  # the schema says so (core.openapi: additionalProperties false)

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(str(k) for k in data if k not in self.fields)
            if unknown:
                raise serializers.ValidationError({k: ["Unknown field."] for k in unknown})
        return super().to_internal_value(data)


class PoolSubnetSerializer(serializers.ModelSerializer):
    cidr = NetworkField(help_text="Canonical network, e.g. 10.10.0.0/16")  # the schema states its grammar

    class Meta:
        model = PoolSubnet
        fields = ["id", "pool", "cidr", "dstport"]
        validators = []

    def validate_cidr(self, value):
        return _grammar(grammar.network, value, "cidr")


class NodePoolSerializer(serializers.ModelSerializer):
    subnets = PoolSubnetSerializer(many=True, read_only=True)
    multicast_group = serializers.CharField(
        max_length=15, default="239.1.1.1", trim_whitespace=False, help_text="IPv4 multicast group (VXLAN BUM)"
    )

    class Meta:
        model = NodePool
        fields = ["id", "name", "description", "multicast_group", "subnets", "created"]
        validators = []

    def validate_multicast_group(self, value):
        return _ipv4_multicast(value)


class InterfaceListSerializer(serializers.ListSerializer):
    """A node's interfaces: the grammar also refuses duplicate names and overlong lists."""

    def to_internal_value(self, data):
        try:
            return grammar.interfaces(data)
        except grammar.GrammarError as exc:
            raise serializers.ValidationError([str(exc)]) from None


@extend_schema_field({"anyOf": [{"type": "string", "pattern": p} for p in (IPV4_NETWORK, IPV6_NETWORK)]})
class InterfaceAddressField(serializers.CharField):
    """An address with its prefix length (the schema states the spelling; the grammar also wants a host)."""


class InterfaceSerializer(serializers.Serializer):
    """One underlay interface; enclave_agent.grammar.interface is the one definition of valid (the fields
    state its spelling for the schema; iproute2 keywords such as `up` are refused as names too)."""

    refuses_unknown_fields = True  # the grammar refuses other keys; the schema says so

    name = serializers.RegexField(
        rf"\A{grammar.IFNAME_RE.pattern}\Z", max_length=grammar.IFNAMSIZ, help_text="Linux interface name, e.g. em1"
    )
    address = InterfaceAddressField(max_length=49, help_text="Address with prefix length, e.g. 10.0.0.5/24")
    gateway = serializers.IPAddressField(protocol="IPv4", required=False, allow_null=True, help_text="IPv4 next hop")

    class Meta:
        list_serializer_class = InterfaceListSerializer

    def to_internal_value(self, data):
        return _grammar(grammar.interface, data)


class CapabilitiesSerializer(StrictObjectMixin, serializers.Serializer):
    """What the agent probed (enclave_agent.plan.Capabilities)."""

    vrf = serializers.BooleanField(required=False)
    vxlan = serializers.BooleanField(required=False)
    nftables = serializers.BooleanField(required=False)
    kernel = serializers.CharField(max_length=200, required=False, allow_blank=True)
    detail = serializers.CharField(max_length=2000, required=False, allow_blank=True)


@extend_schema_field({"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": wire.MAX_SCHEMA},
                      "minItems": 1, "maxItems": wire.MAX_READS, "uniqueItems": True})  # fmt: skip
class ReadsField(serializers.ListField):
    """The desired-state schemas the agent reads (enclave_agent.wire.check_reads: distinct, 1 to 16 of 1..99)."""

    def __init__(self, **kwargs):
        child = serializers.IntegerField(min_value=1, max_value=wire.MAX_SCHEMA)
        super().__init__(child=child, min_length=1, max_length=wire.MAX_READS, **kwargs)

    def to_internal_value(self, data):
        try:  # the agent's own check, strict: "2", true and 2.0 are not versions
            return list(wire.check_reads(data))
        except wire.SchemaError as exc:
            raise serializers.ValidationError(str(exc)) from None


class NodeCredentialSerializer(serializers.ModelSerializer):
    class Meta:
        model = NodeCredential
        fields = ["hint", "created", "expires_at"]


class NodeSerializer(serializers.ModelSerializer):
    interfaces = InterfaceSerializer(many=True, required=False)
    address = serializers.CharField(max_length=39, required=False, allow_null=True, trim_whitespace=False,
                                    help_text="Underlay address; SNAT target")  # fmt: skip
    credentials = NodeCredentialSerializer(many=True, read_only=True)
    wire_reads = serializers.ListField(
        child=serializers.IntegerField(), read_only=True, help_text="The schemas the agent reads (empty: never said)"
    )
    pool_schema = serializers.SerializerMethodField(help_text="The schema the pool's document is written in")
    wire_note = serializers.SerializerMethodField(help_text="Whether the node cannot read or holds its pool's schema")

    class Meta:
        model = Node
        fields = ["id", "name", "pool", "address", "interfaces", "capabilities", "status", "desired_generation",
                  "applied_generation", "last_seen", "last_report", "last_error", "enrolled",
                  "credentials", "wire_reads", "pool_schema", "wire_note"]  # fmt: skip
        read_only_fields = ["name", "pool", "capabilities", "status", "desired_generation", "applied_generation",
                            "last_seen", "last_report", "last_error", "enrolled"]  # fmt: skip

    def get_pool_schema(self, node) -> int | None:
        return pool_schema_of(node)

    def get_wire_note(self, node) -> str:
        return desired.wire_note(node.wire_reads, node.pool.name, pool_schema_of(node))

    def validate_address(self, value):
        return None if value in (None, "") else _grammar(grammar.address, value, "address")


def pool_schema_of(node) -> int | None:
    """The node's pool's document schema: annotated on lists (agents.api), else one query."""
    if not hasattr(node, "pool_schema"):
        node.pool_schema = PoolDocument.objects.filter(pool_id=node.pool_id).values_list("schema", flat=True).first()
    return node.pool_schema


class NodeSummarySerializer(NodeSerializer):
    """A node in the list: everything but its last report (a node of a 1,000-tenant pool reports ~40 KB)."""

    class Meta(NodeSerializer.Meta):
        fields = [name for name in NodeSerializer.Meta.fields if name != "last_report"]


class JoinTokenSerializer(serializers.ModelSerializer):
    hours = serializers.IntegerField(write_only=True, default=24, min_value=1, max_value=24 * 30)

    class Meta:
        model = JoinToken
        fields = ["id", "pool", "node_name", "hint", "expires_at", "used_at", "used_by", "created", "hours"]
        read_only_fields = ["hint", "expires_at", "used_at", "used_by", "created"]


class CreatedJoinTokenSerializer(JoinTokenSerializer):
    """The answer to a join token's creation: the only time its plaintext is shown."""

    token = serializers.CharField(read_only=True, help_text="Plaintext, returned only on creation")

    class Meta(JoinTokenSerializer.Meta):
        fields = [*JoinTokenSerializer.Meta.fields, "token"]


class JoinSerializer(StrictObjectMixin, serializers.Serializer):
    token = serializers.CharField(max_length=200)
    hostname = serializers.CharField(
        max_length=63, trim_whitespace=False, help_text="The node's name (DNS label)",
        validators=[RegexValidator(rf"\A{grammar.NODE_NAME_RE.pattern}\Z", "Use a DNS label.")],  # the schema's pattern
    )  # fmt: skip
    capabilities = CapabilitiesSerializer(required=False, default=dict)
    interfaces = InterfaceSerializer(many=True, required=False, default=list)
    reads = ReadsField(required=False, help_text="The desired-state schemas the agent reads, e.g. [1, 2]")

    def validate_hostname(self, value):
        return _grammar(grammar.node_name, value)


class JoinAnswerSerializer(serializers.Serializer):
    node = serializers.CharField()
    credential = serializers.CharField(help_text="Plaintext node credential, shown once")
    expires_at = serializers.DateTimeField()
    expires_in = serializers.IntegerField(help_text="Seconds the credential stays valid")


class CredentialAnswerSerializer(serializers.Serializer):
    credential = serializers.CharField(help_text="Plaintext node credential, shown once")
    expires_at = serializers.DateTimeField()
    expires_in = serializers.IntegerField(help_text="Seconds the credential stays valid")


class TenantReportSerializer(StrictObjectMixin, serializers.Serializer):
    status = serializers.ChoiceField(choices=TenantNetworkStatus.choices)
    errors = serializers.ListField(child=serializers.CharField(max_length=MAX_ERROR_LENGTH, trim_whitespace=False),
                                   max_length=MAX_ERRORS, required=False, default=list)  # fmt: skip


_STATUSES = frozenset(TenantNetworkStatus.values)
_SURROGATE = re.compile("[\ud800-\udfff]")
_MESSAGE = f"Each error is a non-empty string of at most {MAX_ERROR_LENGTH} characters, without NUL."


def _tenant_report_problem(report) -> dict | None:
    """What TenantReportSerializer would refuse in one tenant's report, as its field errors (None: valid)."""
    if not isinstance(report, dict):
        return {"non_field_errors": ["Expected an object."]}
    unknown = sorted(str(k) for k in report if k not in ("status", "errors"))
    if unknown:
        return {k: ["Unknown field."] for k in unknown}
    status = report.get("status")
    if not isinstance(status, str) or status not in _STATUSES:
        return {"status": [f"Expected one of {', '.join(sorted(_STATUSES))}."]}
    errors = report.get("errors", [])
    if not isinstance(errors, list) or len(errors) > MAX_ERRORS:
        return {"errors": [f"Expected a list of at most {MAX_ERRORS} errors."]}
    for error in errors:
        if not isinstance(error, str) or not error or len(error) > MAX_ERROR_LENGTH or "\x00" in error:
            return {"errors": [_MESSAGE]}
        if _SURROGATE.search(error):
            return {"errors": [_MESSAGE]}
    return None


class TenantReportsField(serializers.DictField):
    """{tenant id: {status, errors}}, checked in one pass with TenantReportSerializer's rules.

    A node reports every tenant of its pool (1,000 at a site of 10,000 tenants): a serializer run per
    tenant cost a web process ~90 ms per report, and a pool's 200 nodes report after every change."""

    def __init__(self, **kwargs):
        super().__init__(child=TenantReportSerializer(), **kwargs)  # the child documents the schema

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            self.fail("not_a_dict", input_type=type(data).__name__)
        problems = {str(key): problem for key, report in data.items() if (problem := _tenant_report_problem(report))}
        if problems:
            raise serializers.ValidationError(problems)
        return {str(key): {"status": r["status"], "errors": list(r.get("errors", []))} for key, r in data.items()}


MAX_IB_PORTS = 64


class IbPortSerializer(StrictObjectMixin, serializers.Serializer):
    """One InfiniBand HCA port of the node (schema 2, optional): its GUID joins the tenants' partitions."""

    device = serializers.RegexField(r"\A[a-z][a-z0-9_]{0,31}\Z", help_text="e.g. mlx5_0")
    port = serializers.IntegerField(min_value=1, max_value=255)
    guid = serializers.RegexField(r"\A0x[0-9a-f]{16}\Z", help_text="0x and 16 lower-case hex digits")
    netdev = serializers.RegexField(r"\A[A-Za-z0-9][A-Za-z0-9_.-]{0,14}\Z", required=False, allow_null=True,
                                    help_text="The port's IPoIB interface, null when it has none")  # fmt: skip

    def validate_guid(self, value):
        try:
            return fabric_wire.guid(value)  # the fabric agent's own check: never the zero GUID
        except fabric_wire.FabricError as exc:
            raise serializers.ValidationError(str(exc)) from None


class ObservedStateSerializer(StrictObjectMixin, serializers.Serializer):
    """The agent's report (enclave_agent.agent.Report); anything else is a 400."""

    generation = serializers.IntegerField(min_value=0, max_value=2**63 - 1)
    tenants = TenantReportsField(required=False, default=dict)
    node_errors = serializers.ListField(child=serializers.CharField(max_length=4000, trim_whitespace=False),
                                        max_length=MAX_ERRORS, required=False, default=list)  # fmt: skip
    capabilities = CapabilitiesSerializer(required=False)
    full = serializers.BooleanField(required=False)
    ops = serializers.IntegerField(required=False, min_value=0, max_value=2**31 - 1)
    processes = serializers.IntegerField(required=False, min_value=0, max_value=2**31 - 1)
    seconds = serializers.FloatField(required=False, min_value=0, max_value=10**6)
    ib_ports = IbPortSerializer(many=True, required=False, max_length=MAX_IB_PORTS)
    reads = ReadsField(required=False, help_text="The desired-state schemas the agent reads, e.g. [1, 2]")

    def validate_ib_ports(self, value):
        guids = [p["guid"] for p in value]
        if len(set(guids)) != len(guids):
            raise serializers.ValidationError("A port GUID is listed twice.")
        return value

    def validate_tenants(self, value):
        if len(value) > MAX_TENANTS_REPORTED:
            raise serializers.ValidationError(f"At most {MAX_TENANTS_REPORTED} tenants.")
        bad = next((k for k in value if not (k.isascii() and k.isdigit() and len(k) <= 19)), None)
        if bad is not None:
            raise serializers.ValidationError(f"Tenant keys are tenant ids, not {bad[:40]!r}.")
        return value
