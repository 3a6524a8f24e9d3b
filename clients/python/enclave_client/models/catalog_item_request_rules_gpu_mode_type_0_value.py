from enum import StrEnum


class CatalogItemRequestRulesGpuModeType0Value(StrEnum):
    NONE = "none"
    PASSTHROUGH = "passthrough"
    VGPU = "vgpu"

    def __str__(self) -> str:
        return str(self.value)
