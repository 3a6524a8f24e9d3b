from enum import StrEnum


class PlanPreviewStatusEnum(StrEnum):
    FAILED = "failed"
    QUEUED = "queued"
    READY = "ready"

    def __str__(self) -> str:
        return str(self.value)
