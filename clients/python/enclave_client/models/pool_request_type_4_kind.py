from enum import StrEnum


class PoolRequestType4Kind(StrEnum):
    CGNAT = "cgnat"

    def __str__(self) -> str:
        return str(self.value)
