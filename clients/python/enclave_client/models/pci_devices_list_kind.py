from enum import StrEnum


class PciDevicesListKind(StrEnum):
    GPU = "gpu"
    NETWORK = "network"
    OTHER = "other"

    def __str__(self) -> str:
        return str(self.value)
