"""Enumerations of the tenants app."""

from django.db import models


class Role(models.TextChoices):
    OWNER = "owner", "Owner (PI)"
    MEMBER = "member", "Member"


class MembershipSource(models.TextChoices):
    """Who manages a membership: people in Enclave, or the directory's groups (re-synchronised)."""

    LOCAL = "local", "Granted in Enclave"
    DIRECTORY = "directory", "From the directory"


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


class NicType(models.TextChoices):
    """The primary adapter of every VM, on the tenant's network (values as vsphere.plan.specs.Adapter)."""

    VMXNET3 = "vmxnet3", "VMXNET3 (paravirtual, 10+ Gb/s)"
    E1000E = "e1000e", "E1000e (emulated, for guests without VMXNET3 drivers)"


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


class ExtensionState(models.TextChoices):
    """A request to extend a lease past the site's maximum, decided by a PI or a site admin."""

    PENDING = "pending", "Waiting for a decision"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"
    WITHDRAWN = "withdrawn", "Withdrawn (the cluster ended first)"


class SiteKind(models.TextChoices):
    """Where a cluster is realized; each kind has one realizer (tenants.realizers)."""

    NONE = "none", "No site (recorded only)"
    VSPHERE = "vsphere", "vSphere"


# An admin approves onto a real site; "none" is only how clusters from before placement read back.
APPROVABLE_SITE_KINDS = [(SiteKind.VSPHERE.value, SiteKind.VSPHERE.label)]

SRIOV_INTERCONNECTS = {Interconnect.SRIOV_IB, Interconnect.SRIOV_ROCE}
# ENS and UPTv2 (DPU offload) drive the VM's VMXNET3: no other adapter type can use them.
VMXNET3_DATA_PATHS = {DataPath.ENHANCED, DataPath.DPU}
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
# States in which a site reconciler owes work while generation and observed_generation differ
# (error waits for a person or a new generation: sweeping it would hammer the site).
RECONCILED_STATES = COMMITTED_STATES - {ClusterState.ERROR}
# States in which a site is at work on the cluster whatever its generations say (its page stays live).
BUSY_STATES = {ClusterState.APPROVED, ClusterState.PROVISIONING, ClusterState.DECOMMISSIONING}

# Requests not yet decided: they can be edited (drafts) or withdrawn.
REQUEST_STATES = {ClusterState.DRAFT, ClusterState.SUBMITTED, ClusterState.ENDORSED}

# The state machine: action -> (states it starts from, state it leads to; None keeps the state).
# Submission leads to SUBMITTED, or straight to ENDORSED when a tenant owner submits.
S = ClusterState
MOVES: dict[str, tuple[set, set]] = {
    "cluster.submit": ({S.DRAFT}, {S.SUBMITTED, S.ENDORSED}),
    "cluster.endorse": ({S.SUBMITTED}, {S.ENDORSED}),
    "cluster.approve": ({S.ENDORSED}, {S.APPROVED}),
    "cluster.reject": ({S.SUBMITTED, S.ENDORSED}, {S.REJECTED}),
    "cluster.withdraw": (REQUEST_STATES, {S.RETIRED}),
    "cluster.decommission": (LIVE_STATES, {S.DECOMMISSIONING}),
    "cluster.lease_expired": (LIVE_STATES, {S.DECOMMISSIONING}),
    "cluster.extend_lease": (set(S) - {S.REJECTED, S.RETIRED, S.DECOMMISSIONING}, {None}),
    "cluster.resize": (LIVE_STATES, {None}),
    # What reconcilers observe (tenants.services.set_observed).
    "cluster.provisioning": ({S.APPROVED, S.READY, S.DEGRADED, S.ERROR}, {S.PROVISIONING}),
    "cluster.ready": ({S.PROVISIONING, S.DEGRADED, S.ERROR, S.APPROVED, S.READY}, {S.READY}),
    "cluster.degraded": ({S.READY}, {S.DEGRADED}),
    "cluster.error": ({S.APPROVED, S.PROVISIONING, S.READY, S.DEGRADED, S.DECOMMISSIONING}, {S.ERROR}),
    "cluster.retired": ({S.DECOMMISSIONING}, {S.RETIRED}),
}

# Lease extensions past the site's maximum: action -> (states it starts from, state it leads to).
E = ExtensionState
EXTENSION_MOVES = {
    "lease_extension.approve": ({E.PENDING}, E.APPROVED),
    "lease_extension.reject": ({E.PENDING}, E.REJECTED),
    "lease_extension.withdraw": ({E.PENDING}, E.WITHDRAWN),  # its cluster left LEASE_STATES
}
# A cluster in these states may have its lease moved; the others are gone or going.
LEASE_STATES = MOVES["cluster.extend_lease"][0]
del S, E
