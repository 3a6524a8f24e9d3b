"""API serializers of the tenants app."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tenants import progress, realizers
from tenants.access import tenant_ids
from tenants.choices import (
    APPROVABLE_SITE_KINDS,
    VMXNET3_DATA_PATHS,
    DataPath,
    GpuMode,
    Interconnect,
    NicType,
    Role,
    SiteKind,
)
from tenants.models import LeaseExtension, Membership, Quota, Tenant, VirtualCluster


class TenantSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tenant
        fields = ["id", "slug", "name", "description", "created"]
        read_only_fields = ["created"]


class MembershipSerializer(serializers.ModelSerializer):
    # Plain text, resolved by tenants.services.addable_user after the permission check: the answer never tells
    # a non-owner whether a name exists, nor an owner whether an unknown name and a refused one differ.
    username = serializers.CharField(
        source="user.username",
        max_length=150,
        help_text="The user's name; they sign in to Enclave once before they can be added",
    )
    role = serializers.ChoiceField(choices=Role.choices, default=Role.MEMBER)

    class Meta:
        model = Membership
        fields = ["id", "tenant", "username", "role", "source", "created"]
        read_only_fields = ["source", "created"]  # directory memberships are made by identity.mapping only


class QuotaSerializer(serializers.ModelSerializer):
    class Meta:
        model = Quota
        fields = ["id", "tenant", "max_nodes", "max_vcpus", "max_memory_gb", "max_vfs", "max_segments",
                  "max_pending_segments", "max_gpus"]  # fmt: skip
        read_only_fields = ["tenant"]


def _gpu_variants() -> tuple[dict, ...]:
    """GPUs per worker go with a GPU mode, a vGPU profile with vGPU mode only (tenants.services.check_request)."""
    none, whole, shared = GpuMode.NONE.value, GpuMode.PASSTHROUGH.value, GpuMode.VGPU.value
    return (
        {"properties": {"gpu_mode": {"enum": [none]}, "gpus_per_worker": {"maximum": 0},
                        "vgpu_profile": {"maxLength": 0}}},
        {"properties": {"gpu_mode": {"enum": [whole]}, "gpus_per_worker": {"minimum": 1},
                        "vgpu_profile": {"maxLength": 0}}, "required": ["gpu_mode", "gpus_per_worker"]},
        {"properties": {"gpu_mode": {"enum": [shared]}, "gpus_per_worker": {"minimum": 1},
                        "vgpu_profile": {"minLength": 1}}, "required": ["gpu_mode", "gpus_per_worker", "vgpu_profile"]},
    )  # fmt: skip


def _data_path_variants() -> tuple[dict, ...]:
    """The enhanced and offloaded data paths run on VMXNET3 only."""
    others = sorted(set(DataPath.values) - {p.value for p in VMXNET3_DATA_PATHS})
    vmxnet3 = NicType.VMXNET3.value
    return {"properties": {"data_path": {"enum": others}}}, {"properties": {"nic_type": {"enum": [vmxnet3]}}}


class NextStepSerializer(serializers.Serializer):
    """Where a request is on its path and who (by role) may act next."""

    step = serializers.CharField(read_only=True, help_text="submitted, endorse, approve, provisioning, ready or done")
    actor = serializers.CharField(read_only=True, help_text="requester, pi, site_admin, pi_or_site_admin, site or "
                                  "empty (nobody needs to act)")  # fmt: skip
    text = serializers.CharField(read_only=True, help_text="What happens next, in words")


class PlacedField(serializers.IntegerField):
    """The id of the cluster's site or segment, as its site app's realizer stored it (tenants.realizers)."""

    def __init__(self, **kwargs):
        super().__init__(read_only=True, allow_null=True, **kwargs)

    def get_attribute(self, cluster):
        return getattr(realizers.placement_of(cluster), f"{self.field_name}_id")


class ClusterSerializer(serializers.ModelSerializer):
    """A virtual cluster request; state fields are read-only and change only through actions."""

    # A new request's absent fields take their defaults, so the schema states which fields go together.
    schema_variants = (_gpu_variants(), _data_path_variants())

    submit = serializers.BooleanField(write_only=True, default=False, help_text="Submit at once")
    requested_by = serializers.CharField(source="requested_by.username", read_only=True)
    vm_count = serializers.IntegerField(read_only=True)
    total_vcpus = serializers.IntegerField(read_only=True)
    total_memory_gb = serializers.IntegerField(read_only=True)
    vf_count = serializers.IntegerField(read_only=True)
    gpu_count = serializers.IntegerField(read_only=True)
    site_kind = serializers.ChoiceField(
        choices=SiteKind.choices, allow_blank=True, read_only=True, help_text="Empty until an admin approves"
    )
    site = PlacedField()
    segment = PlacedField()
    next_step = serializers.SerializerMethodField(help_text="Who (by role) may act next on the request")

    class Meta:
        model = VirtualCluster
        fields = [
            "id", "tenant", "name", "workload_class", "worker_count", "vcpus_per_node",
            "memory_gb_per_node", "login_node", "interconnect", "network_mode", "data_path", "nic_type",
            "gpu_mode", "gpus_per_worker", "vgpu_profile",
            "lease_end", "justification", "submit", "state", "status_message", "generation",
            "observed_generation", "requested_by", "rejection_reason", "vm_count", "total_vcpus",
            "total_memory_gb", "vf_count", "gpu_count", "site_kind", "site", "segment", "created", "updated",
            "next_step",
        ]  # fmt: skip
        read_only_fields = [
            "state", "status_message", "generation", "observed_generation", "rejection_reason",
            "site_kind", "created", "updated",
        ]  # fmt: skip
        # Name uniqueness is checked by the service (among live requests), not by DRF.
        validators = []

    @extend_schema_field(NextStepSerializer)
    def get_next_step(self, cluster) -> dict:
        return progress.next_step(cluster)

    def validate_tenant(self, tenant):
        """Only the user's own tenants may be named; others do not exist for them."""
        user = self.context["request"].user
        if not user.is_staff and tenant.pk not in tenant_ids(user):
            raise serializers.ValidationError("No such tenant.")
        return tenant


class ClusterUpdateSerializer(ClusterSerializer):
    # An edit keeps the stored value of every field it leaves out: whether the GPU and data path fields
    # then go together depends on the stored draft as well, so only the service can tell (a 400).
    schema_variants = ()

    class Meta(ClusterSerializer.Meta):
        read_only_fields = ClusterSerializer.Meta.read_only_fields + ["tenant"]


class ResizeSerializer(serializers.Serializer):
    """A new worker count, a new interconnect, or both (tenants.services.resize_cluster refuses neither)."""

    schema_variants = ({"required": ["worker_count"]}, {"required": ["interconnect"]})
    worker_count = serializers.IntegerField(min_value=1, max_value=1024, required=False)
    interconnect = serializers.ChoiceField(choices=Interconnect.choices, required=False)


class AccessNodeSerializer(serializers.Serializer):
    name = serializers.CharField()
    role = serializers.CharField()
    host_name = serializers.CharField()
    addresses = serializers.ListField(child=serializers.IPAddressField())


class LoginSerializer(serializers.Serializer):
    host_name = serializers.CharField()
    address = serializers.IPAddressField()


class ClusterAccessSerializer(serializers.Serializer):
    """How to reach a cluster: login host and address, the SSH command, every VM, and what protects it."""

    site = serializers.CharField()
    login = LoginSerializer(allow_null=True)
    ssh = serializers.CharField(help_text="For the requesting user; empty without a login node")
    nodes = AccessNodeSerializer(many=True)
    enforcement = serializers.ListField(child=serializers.CharField())
    unprotected = serializers.ListField(child=serializers.CharField(), help_text="Traffic no filter sees, and why")


class ApproveSerializer(serializers.Serializer):
    site = serializers.IntegerField(
        required=False, min_value=1, help_text="Id of the site (vCenter) to realize the cluster on; "
        "needed only when several are registered",
    )  # fmt: skip
    site_kind = serializers.ChoiceField(choices=APPROVABLE_SITE_KINDS, default=SiteKind.VSPHERE)


class RejectSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=4000)


class ExtendLeaseSerializer(serializers.Serializer):
    lease_end = serializers.DateField()
    justification = serializers.CharField(
        max_length=4000,
        required=False,
        allow_blank=True,
        default="",
        help_text="Needed only past the site's maximum lease: the extension then waits for a PI's or admin's approval",
    )


class LeaseExtensionSerializer(serializers.ModelSerializer):
    """A request to extend a lease past the site's maximum (read-only: decided through its actions)."""

    class Meta:
        model = LeaseExtension
        fields = ["id", "cluster", "lease_end", "justification", "state", "requested_by", "decided_by",
                  "decision_reason", "created", "decided"]  # fmt: skip
        read_only_fields = fields


class ExtensionDecisionSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=4000, required=False, allow_blank=True, default="")
