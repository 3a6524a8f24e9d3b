from enum import StrEnum


class PatchedCatalogItemRequestRulesGpuModeType1ChoicesItem(StrEnum):
    NONE = "none"
    PASSTHROUGH = "passthrough"
    VGPU = "vgpu"

    def __str__(self) -> str:
        return str(self.value)
