from enum import StrEnum


class PciDevicesListMode(StrEnum):
    PASSTHROUGH = "passthrough"
    VGPU = "vgpu"

    def __str__(self) -> str:
        return str(self.value)
