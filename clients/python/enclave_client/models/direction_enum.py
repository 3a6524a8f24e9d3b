from enum import StrEnum


class DirectionEnum(StrEnum):
    IN = "in"
    IN_OUT = "in-out"
    OUT = "out"

    def __str__(self) -> str:
        return str(self.value)
