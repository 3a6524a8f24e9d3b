from enum import StrEnum


class GpuModeEnum(StrEnum):
    NONE = "none"
    PASSTHROUGH = "passthrough"
    VGPU = "vgpu"

    def __str__(self) -> str:
        return str(self.value)
