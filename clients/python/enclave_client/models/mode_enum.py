from enum import StrEnum


class ModeEnum(StrEnum):
    PASSTHROUGH = "passthrough"
    VGPU = "vgpu"

    def __str__(self) -> str:
        return str(self.value)
