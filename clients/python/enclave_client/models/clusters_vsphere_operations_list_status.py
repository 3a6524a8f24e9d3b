from enum import StrEnum


class ClustersVsphereOperationsListStatus(StrEnum):
    DONE = "done"
    FAILED = "failed"
    INFO = "info"
    SKIPPED = "skipped"
    STARTED = "started"

    def __str__(self) -> str:
        return str(self.value)
