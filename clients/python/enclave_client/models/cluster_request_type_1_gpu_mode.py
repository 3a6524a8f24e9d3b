from enum import StrEnum


class ClusterRequestType1GpuMode(StrEnum):
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
