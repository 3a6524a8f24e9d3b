from enum import StrEnum


class ClustersListStateItem(StrEnum):
    APPROVED = "approved"
    DECOMMISSIONING = "decommissioning"
    DEGRADED = "degraded"
    DRAFT = "draft"
    ENDORSED = "endorsed"
    ERROR = "error"
    PROVISIONING = "provisioning"
    READY = "ready"
    REJECTED = "rejected"
    RETIRED = "retired"
    SUBMITTED = "submitted"

    def __str__(self) -> str:
        return str(self.value)
