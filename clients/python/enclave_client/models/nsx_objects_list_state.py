from enum import StrEnum


class NsxObjectsListState(StrEnum):
    ERROR = "error"
    IN_PROGRESS = "in_progress"
    PENDING = "pending"
    REALIZED = "realized"

    def __str__(self) -> str:
        return str(self.value)
