"""API serializers of the vsphere app; writes go through vsphere.services."""

from rest_framework import serializers

from vsphere.choices import PlanStatus, StepStatus
from vsphere.models import Host, OperationLog, PhysicalFunction, VCenter, VFAssignment
from vsphere.plan.changes import ChangeKind


def _counted(obj, annotation: str, relation: str) -> int:
    """A list's count comes annotated by its queryset (one query for the page); a single object counts."""
    value = obj.__dict__.get(annotation)
    return getattr(obj, relation).count() if value is None else value


class VCenterSerializer(serializers.ModelSerializer):
    """A vCenter endpoint; the password is write-only and stored encrypted."""

    password = serializers.CharField(
        write_only=True, required=False, allow_blank=True, style={"input_type": "password"},
        help_text="Write-only; encrypted at rest. Leave out on update to keep the current one.",
    )  # fmt: skip
    has_password = serializers.SerializerMethodField()
    skips_tls_verification = serializers.BooleanField(read_only=True)
    host_count = serializers.SerializerMethodField()

    class Meta:
        model = VCenter
        fields = [
            "id", "name", "host", "port", "username", "password", "has_password", "password_file",
            "verify_tls", "ca_bundle", "insecure", "skips_tls_verification", "datacenter", "compute_cluster",
            "template", "dvs_name", "uplink_pnic", "management_network", "management_isolation", "host_count",
            "inventory", "last_discovery", "discovery_error",
        ]  # fmt: skip
        read_only_fields = ["inventory", "last_discovery", "discovery_error"]
        extra_kwargs = {
            "verify_tls": {"required": False, "help_text": "On by default; off only together with insecure"},
            "insecure": {"required": False, "help_text": "Lab only: skip TLS verification (shown in the UI)"},
        }

    def get_has_password(self, vcenter) -> bool:
        return bool(vcenter.password)

    def get_host_count(self, vcenter) -> int:
        return _counted(vcenter, "host_total", "hosts")


class HostSerializer(serializers.ModelSerializer):
    vcenter_name = serializers.CharField(source="vcenter.name", read_only=True)
    pf_count = serializers.SerializerMethodField()

    class Meta:
        model = Host
        fields = ["id", "vcenter", "vcenter_name", "name", "compute_cluster", "discovered", "pf_count"]
        read_only_fields = fields

    def get_pf_count(self, host) -> int:
        return _counted(host, "pf_total", "pfs")


class PhysicalFunctionSerializer(serializers.ModelSerializer):
    """An SR-IOV PF; NUM_OF_VFS must cover the card's enabled VFs plus one (checked by the service)."""

    host_name = serializers.CharField(source="host.name", read_only=True)
    card = serializers.CharField(read_only=True)
    used_vfs = serializers.SerializerMethodField()

    class Meta:
        model = PhysicalFunction
        fields = [
            "id", "host", "host_name", "pci_id", "card", "pnic", "model", "port", "link_type",
            "firmware_num_vfs", "max_vfs", "used_vfs", "source",
        ]  # fmt: skip
        read_only_fields = ["source"]
        # The schema states the rule across fields and ports in words: JSON Schema cannot compare two values.
        extra_kwargs = {
            "firmware_num_vfs": {
                "help_text": "NUM_OF_VFS of the card: at least the max_vfs of every port of the card plus one (the PF)"
            }
        }
        # Uniqueness per host is checked by the service, with a message naming the host and PCI id.
        validators = []

    def get_used_vfs(self, pf) -> int:
        return _counted(pf, "used_vfs", "assignments")


class PhysicalFunctionUpdateSerializer(PhysicalFunctionSerializer):
    class Meta(PhysicalFunctionSerializer.Meta):
        read_only_fields = ["source", "host"]


class VFAssignmentSerializer(serializers.ModelSerializer):
    host = serializers.CharField(source="pf.host.name", read_only=True)
    pci_id = serializers.CharField(source="pf.pci_id", read_only=True)
    tenant = serializers.IntegerField(source="cluster.tenant_id", read_only=True)

    class Meta:
        model = VFAssignment
        fields = ["id", "pf", "host", "pci_id", "slot", "cluster", "tenant", "node_name", "port_guid", "created"]
        read_only_fields = fields


class PFCapacitySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    pf = serializers.CharField(help_text="PCI id")
    pnic = serializers.CharField()
    link_type = serializers.CharField()
    total = serializers.IntegerField(help_text="VFs the driver enables (max_vfs)")
    used = serializers.IntegerField()
    free = serializers.IntegerField()


class HostCapacitySerializer(serializers.Serializer):
    host = serializers.CharField()
    total = serializers.IntegerField()
    used = serializers.IntegerField()
    free = serializers.IntegerField()
    pfs = PFCapacitySerializer(many=True)


class VCenterCapacitySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField()
    used = serializers.IntegerField()
    free = serializers.IntegerField()
    hosts = HostCapacitySerializer(many=True)


class CapacitySerializer(serializers.Serializer):
    vcenters = VCenterCapacitySerializer(many=True)


class PlanChangeSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[(k.value, k.value) for k in ChangeKind])
    target = serializers.CharField()
    detail = serializers.CharField(allow_blank=True)
    text = serializers.SerializerMethodField()

    def get_text(self, change) -> str:
        return f"{change['kind']} {change['target']}" + (f": {change['detail']}" if change["detail"] else "")


class PlanPreviewSerializer(serializers.Serializer):
    """The dry run: what the reconciler would change now, or why no plan can be made (worker-computed)."""

    cluster = serializers.IntegerField()
    state = serializers.CharField(help_text="The cluster's state")
    status = serializers.ChoiceField(choices=PlanStatus.choices, help_text="queued until the worker answers")
    requested = serializers.DateTimeField()
    finished = serializers.DateTimeField(allow_null=True)
    vcenter = serializers.CharField(allow_null=True)
    changes = PlanChangeSerializer(many=True)
    error = serializers.CharField(allow_blank=True)


class OperationLogSerializer(serializers.ModelSerializer):
    status = serializers.ChoiceField(choices=StepStatus.choices, read_only=True)

    class Meta:
        model = OperationLog
        fields = ["id", "cluster", "generation", "key", "step", "status", "message", "created"]
        read_only_fields = fields


class DiscoveryQueuedSerializer(serializers.Serializer):
    detail = serializers.CharField()
    vcenter = serializers.IntegerField()
