"""Serializers of the fabrics app: inventory for site admins, a tenant's own partitions, the agent's answers."""

from enclave_agent import fabric_wire as wire
from rest_framework import serializers

from agents.models import NodePool
from agents.serializers import StrictObjectMixin
from fabrics.models import PKEY_BOUNDS, Fabric, FabricJoinToken, PartitionKey, SharedPort, guid_validator
from vsphere.models import Host


class FabricSerializer(StrictObjectMixin, serializers.ModelSerializer):
    hosts = serializers.PrimaryKeyRelatedField(
        many=True, required=False, write_only=True, queryset=Host.objects.all(), help_text="Hosts with PFs on it"
    )
    pools = serializers.PrimaryKeyRelatedField(
        many=True, required=False, write_only=True, queryset=NodePool.objects.all(), help_text="Node pools on it"
    )
    reserved_pkeys = serializers.ListField(child=serializers.IntegerField(min_value=wire.PKEY_MIN,
                                                                          max_value=wire.PKEY_MAX),
                                           required=False, max_length=4096)  # fmt: skip
    vf_guid_first = serializers.CharField(required=False, allow_blank=True, validators=[guid_validator],
                                          max_length=18)  # fmt: skip
    partitions = serializers.IntegerField(read_only=True, source="live_partitions", default=0)
    host_ids = serializers.SerializerMethodField()
    pool_ids = serializers.SerializerMethodField()

    class Meta:
        model = Fabric
        fields = ["id", "name", "kind", "description", "pkey_first", "pkey_last", "reserved_pkeys",
                  "cooldown_minutes", "vf_guid_first", "vf_guid_count", "hosts", "pools", "host_ids", "pool_ids",
                  "generation", "applied_generation", "last_seen", "sm", "errors", "drift", "partitions",
                  "created"]  # fmt: skip
        read_only_fields = ["generation", "applied_generation", "last_seen", "sm", "errors", "drift", "created"]
        extra_kwargs = {"pkey_first": {"validators": PKEY_BOUNDS}, "pkey_last": {"validators": PKEY_BOUNDS}}

    def get_host_ids(self, instance) -> list[int]:
        return [link.host_id for link in instance.host_links.all()]

    def get_pool_ids(self, instance) -> list[int]:
        return [link.pool_id for link in instance.pool_links.all()]


class SharedPortSerializer(StrictObjectMixin, serializers.ModelSerializer):
    class Meta:
        model = SharedPort
        fields = ["id", "fabric", "guid", "description", "created"]
        read_only_fields = ["created"]


class PartitionSerializer(serializers.ModelSerializer):
    """A tenant's partition key on a fabric (tenants see their own only)."""

    fabric = serializers.CharField(source="fabric.name", read_only=True)
    pkey = serializers.CharField(source="text", read_only=True, help_text="0x and 4 hex digits")

    class Meta:
        model = PartitionKey
        fields = ["id", "fabric", "tenant", "pkey", "state", "message", "allocated", "released"]
        read_only_fields = fields


class FabricJoinTokenSerializer(StrictObjectMixin, serializers.ModelSerializer):
    hours = serializers.IntegerField(write_only=True, default=24, min_value=1, max_value=24 * 30)

    class Meta:
        model = FabricJoinToken
        fields = ["id", "fabric", "hint", "expires_at", "used_at", "created", "hours"]
        read_only_fields = ["hint", "expires_at", "used_at", "created"]


class CreatedFabricJoinTokenSerializer(FabricJoinTokenSerializer):
    """The answer to a join token's creation: the only time its plaintext is shown."""

    token = serializers.CharField(read_only=True, help_text="Plaintext, returned only on creation")

    class Meta(FabricJoinTokenSerializer.Meta):
        fields = [*FabricJoinTokenSerializer.Meta.fields, "token"]


class FabricJoinSerializer(StrictObjectMixin, serializers.Serializer):
    token = serializers.CharField(max_length=200)
    # The agent sends socket.gethostname(): a name with dots and capitals is fine, for the audit trail only.
    hostname = serializers.RegexField(r"\A[A-Za-z0-9](?:[A-Za-z0-9.-]{0,98}[A-Za-z0-9])?\Z", required=False,
                                      help_text="The subnet manager's host name, for the audit trail")  # fmt: skip


class FabricCredentialAnswerSerializer(serializers.Serializer):
    fabric = serializers.CharField()
    credential = serializers.CharField(help_text="Plaintext fabric agent credential, shown once")
    expires_at = serializers.DateTimeField()
    expires_in = serializers.IntegerField(help_text="Seconds the credential stays valid")
