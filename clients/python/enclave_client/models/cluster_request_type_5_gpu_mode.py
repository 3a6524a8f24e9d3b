from enum import StrEnum


class ClusterRequestType5GpuMode(StrEnum):
    VGPU = "vgpu"

    def __str__(self) -> str:
        return str(self.value)
