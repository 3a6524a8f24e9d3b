from enum import StrEnum


class PatchedCatalogItemRequestRulesDataPathType0Value(StrEnum):
    DPU = "dpu"
    ENHANCED = "enhanced"
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
