"""The values of the API's enums that options offer, as plain tuples in the generated enums' order: importing the
enums themselves loads `enclave_client.models`, all ~500 of its modules (over a second), before even `--help`.
tests/cli/test_cli_startup.py checks that each tuple still equals its enum's values."""

ACTIONS = ("allow", "drop", "reject")  # ActionEnum
CLUSTER_STATES = (  # ClusterStateEnum
    "approved", "decommissioning", "degraded", "draft", "endorsed", "error", "provisioning", "ready", "rejected",
    "retired", "submitted",
)  # fmt: skip
DATA_PATHS = ("dpu", "enhanced", "standard")  # DataPathEnum
DELIVERY_STATES = ("failed", "pending", "retrying", "sending", "succeeded")  # DeliveryStateEnum
DIRECTIONS = ("in", "in-out", "out")  # DirectionEnum
GPU_MODES = ("none", "passthrough", "vgpu")  # GpuModeEnum
INTERCONNECTS = ("directpath", "none", "pvrdma", "sriov-ib", "sriov-roce")  # InterconnectEnum
NETWORK_MODES = ("overlay", "vlan")  # NetworkModeEnum
NIC_TYPES = ("e1000e", "vmxnet3")  # NicTypeEnum
SCOPES = ("read", "write")  # ScopeEnum
SEGMENT_KINDS = ("overlay", "vlan")  # SegmentKindEnum
WORKLOAD_CLASSES = ("high-throughput", "ml", "parallel-distributed")  # WorkloadClassEnum
WEBHOOK_EVENTS = (  # EventsEnum
    "approval.needed", "cluster.state_changed", "firewall.changed", "lease.expiring", "node.not_ready",
    "segment.state_changed",
)  # fmt: skip
