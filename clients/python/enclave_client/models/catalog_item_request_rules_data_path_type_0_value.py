from enum import StrEnum


class CatalogItemRequestRulesDataPathType0Value(StrEnum):
    DPU = "dpu"
    ENHANCED = "enhanced"
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
