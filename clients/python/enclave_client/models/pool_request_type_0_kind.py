from enum import StrEnum


class PoolRequestType0Kind(StrEnum):
    VLAN = "vlan"

    def __str__(self) -> str:
        return str(self.value)
