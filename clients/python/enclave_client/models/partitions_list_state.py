from enum import StrEnum


class PartitionsListState(StrEnum):
    DEGRADED = "degraded"
    PENDING = "pending"
    REALIZED = "realized"

    def __str__(self) -> str:
        return str(self.value)
