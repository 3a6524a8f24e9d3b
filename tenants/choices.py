"""Enumerations of the tenants app."""

from django.db import models


class Role(models.TextChoices):
    OWNER = "owner", "Owner (PI)"
    MEMBER = "member", "Member"


class WorkloadClass(models.TextChoices):
    HIGH_THROUGHPUT = "high-throughput", "High-throughput"
    PARALLEL = "parallel-distributed", "Parallel-distributed (MPI)"
    ML = "ml", "Machine learning"


class Interconnect(models.TextChoices):
    NONE = "none", "None (VMXNET3 only)"
    SRIOV_IB = "sriov-ib", "SR-IOV InfiniBand"
    SRIOV_ROCE = "sriov-roce", "SR-IOV RoCE"
    PVRDMA = "pvrdma", "PVRDMA"
    DIRECTPATH = "directpath", "DirectPath I/O (whole RoCE NIC)"


class GpuMode(models.TextChoices):
    """How each worker gets its GPUs: none, NVIDIA vGPU profiles, or whole GPUs (DirectPath I/O)."""

    NONE = "none", "No GPUs"
    VGPU = "vgpu", "NVIDIA vGPU (a share of a GPU)"
    PASSTHROUGH = "passthrough", "Whole GPUs (DirectPath I/O)"


class NetworkMode(models.TextChoices):
    VLAN = "vlan", "VLAN"
    OVERLAY = "overlay", "Overlay (GENEVE/VXLAN)"


class DataPath(models.TextChoices):
    STANDARD = "standard", "Standard"
    ENHANCED = "enhanced", "Enhanced data path (ENS)"
    DPU = "dpu", "DPU offload (UPTv2)"


class ClusterState(models.TextChoices):
    DRAFT = "draft", "Draft"
    SUBMITTED = "submitted", "Submitted"
    ENDORSED = "endorsed", "Endorsed"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"
    PROVISIONING = "provisioning", "Provisioning"
    READY = "ready", "Ready"
    DEGRADED = "degraded", "Degraded"
    ERROR = "error", "Error"
    DECOMMISSIONING = "decommissioning", "Decommissioning"
    RETIRED = "retired", "Retired"


SRIOV_INTERCONNECTS = {Interconnect.SRIOV_IB, Interconnect.SRIOV_ROCE}
MAX_GPUS_PER_WORKER = 8
# States whose resources count against the tenant's quota.
PENDING_STATES = {ClusterState.SUBMITTED, ClusterState.ENDORSED}
COMMITTED_STATES = {
    ClusterState.APPROVED,
    ClusterState.PROVISIONING,
    ClusterState.READY,
    ClusterState.DEGRADED,
    ClusterState.ERROR,
    ClusterState.DECOMMISSIONING,
}
LIVE_STATES = COMMITTED_STATES - {ClusterState.DECOMMISSIONING}
