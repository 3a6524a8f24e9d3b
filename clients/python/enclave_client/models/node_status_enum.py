from enum import StrEnum


class NodeStatusEnum(StrEnum):
    NOT_READY = "not-ready"
    PENDING = "pending"
    READY = "ready"

    def __str__(self) -> str:
        return str(self.value)
