from enum import StrEnum


class ClusterRequestType4GpuMode(StrEnum):
    VGPU = "vgpu"

    def __str__(self) -> str:
        return str(self.value)
