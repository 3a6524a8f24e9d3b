from enum import StrEnum


class PoolRequestType1Kind(StrEnum):
    VNI = "vni"

    def __str__(self) -> str:
        return str(self.value)
