from enum import StrEnum


class SegmentsListStateItem(StrEnum):
    APPROVED = "approved"
    ERROR = "error"
    PROVISIONING = "provisioning"
    READY = "ready"
    REJECTED = "rejected"
    REQUESTED = "requested"
    RETIRED = "retired"

    def __str__(self) -> str:
        return str(self.value)
