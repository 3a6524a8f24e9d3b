from enum import StrEnum


class ClusterRequestType3GpuMode(StrEnum):
    PASSTHROUGH = "passthrough"

    def __str__(self) -> str:
        return str(self.value)
