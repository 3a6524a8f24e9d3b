"""API serializers of the agents app."""

import ipaddress

from rest_framework import serializers

from agents.models import JoinToken, Node, NodePool, PoolSubnet


class PoolSubnetSerializer(serializers.ModelSerializer):
    class Meta:
        model = PoolSubnet
        fields = ["id", "pool", "cidr", "dstport"]
        validators = []

    def validate_cidr(self, value):
        try:
            return str(ipaddress.ip_network(value, strict=True))
        except ValueError as exc:
            raise serializers.ValidationError(str(exc)) from None


class NodePoolSerializer(serializers.ModelSerializer):
    subnets = PoolSubnetSerializer(many=True, read_only=True)

    class Meta:
        model = NodePool
        fields = ["id", "name", "description", "multicast_group", "subnets", "created"]
        validators = []

    def validate_multicast_group(self, value):
        if not ipaddress.ip_address(value).is_multicast:
            raise serializers.ValidationError("Not a multicast address.")
        return value


class NodeSerializer(serializers.ModelSerializer):
    class Meta:
        model = Node
        fields = ["id", "name", "pool", "address", "interfaces", "capabilities", "status", "desired_generation",
                  "applied_generation", "last_seen", "last_report", "last_error", "enrolled"]  # fmt: skip
        read_only_fields = ["name", "pool", "capabilities", "status", "desired_generation", "applied_generation",
                            "last_seen", "last_report", "last_error", "enrolled"]  # fmt: skip

    def validate_interfaces(self, value):
        if not isinstance(value, list):
            raise serializers.ValidationError("A list of {name, address} objects.")
        for item in value:
            if not isinstance(item, dict) or not {"name", "address"} <= item.keys():
                raise serializers.ValidationError("Each interface needs a name and an address (CIDR).")
            try:
                ipaddress.ip_interface(item["address"])
            except ValueError as exc:
                raise serializers.ValidationError(str(exc)) from None
        return value


class JoinTokenSerializer(serializers.ModelSerializer):
    token = serializers.CharField(read_only=True, help_text="Plaintext, returned only on creation")
    hours = serializers.IntegerField(write_only=True, default=24, min_value=1, max_value=24 * 30)

    class Meta:
        model = JoinToken
        fields = ["id", "pool", "node_name", "hint", "expires_at", "used_at", "used_by", "created", "hours", "token"]
        read_only_fields = ["hint", "expires_at", "used_at", "used_by", "created"]


class JoinSerializer(serializers.Serializer):
    token = serializers.CharField(max_length=200)
    hostname = serializers.RegexField(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$", max_length=63)
    capabilities = serializers.DictField(required=False, default=dict)
    interfaces = serializers.ListField(child=serializers.DictField(), required=False, default=list)


class ObservedStateSerializer(serializers.Serializer):
    generation = serializers.IntegerField(min_value=0)
    tenants = serializers.DictField(child=serializers.DictField(), required=False, default=dict)
    node_errors = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    capabilities = serializers.DictField(required=False, default=dict)
    full = serializers.BooleanField(required=False)
    ops = serializers.IntegerField(required=False)
    processes = serializers.IntegerField(required=False)
    seconds = serializers.FloatField(required=False)
