from enum import StrEnum


class ClusterRequestType0GpuMode(StrEnum):
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
