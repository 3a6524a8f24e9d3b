"""The reconciler's journal: each step written to the operation log as it starts and ends."""

from tenants.models import VirtualCluster
from vsphere.choices import StepStatus
from vsphere.models import OperationLog


class StepLog:
    """Writes each reconciler step to the operation log as it starts and ends."""

    def __init__(self, cluster: VirtualCluster, generation: int):
        self.cluster = cluster
        self.generation = generation

    def __call__(self, key: str, step: str, status: str) -> None:
        # Written before the request is sent: a restarted worker reads it as its journal.
        OperationLog.objects.create(
            cluster=self.cluster, generation=self.generation, key=key, step=step[:2000], status=status
        )

    def note(self, message: str, status: str = StepStatus.INFO) -> None:  # type: ignore[assignment]  # TextChoices
        OperationLog.objects.create(
            cluster=self.cluster, generation=self.generation, key="note", step=message[:2000], status=status
        )


def started_clones(cluster: VirtualCluster) -> frozenset[str]:
    """VM names whose clone Enclave started for this cluster (from the journal)."""
    keys = OperationLog.objects.filter(cluster=cluster, key__startswith="clone:", status=StepStatus.STARTED)
    return frozenset(key.removeprefix("clone:") for key in keys.values_list("key", flat=True))
