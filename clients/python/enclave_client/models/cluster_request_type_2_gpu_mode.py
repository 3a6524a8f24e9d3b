from enum import StrEnum


class ClusterRequestType2GpuMode(StrEnum):
    PASSTHROUGH = "passthrough"

    def __str__(self) -> str:
        return str(self.value)
