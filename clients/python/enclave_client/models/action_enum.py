from enum import StrEnum


class ActionEnum(StrEnum):
    ALLOW = "allow"
    DROP = "drop"
    REJECT = "reject"

    def __str__(self) -> str:
        return str(self.value)
