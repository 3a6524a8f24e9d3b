from enum import StrEnum


class TenantReportStatusEnum(StrEnum):
    FAILED = "failed"
    NOT_READY = "not_ready"
    READY = "ready"

    def __str__(self) -> str:
        return str(self.value)
