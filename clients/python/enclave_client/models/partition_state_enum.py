from enum import StrEnum


class PartitionStateEnum(StrEnum):
    DEGRADED = "degraded"
    PENDING = "pending"
    REALIZED = "realized"

    def __str__(self) -> str:
        return str(self.value)
