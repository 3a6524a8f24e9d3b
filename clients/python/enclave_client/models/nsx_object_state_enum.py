from enum import StrEnum


class NsxObjectStateEnum(StrEnum):
    ERROR = "error"
    IN_PROGRESS = "in_progress"
    PENDING = "pending"
    REALIZED = "realized"

    def __str__(self) -> str:
        return str(self.value)
