from enum import StrEnum


class CatalogItemRequestRulesDataPathType1Value(StrEnum):
    DPU = "dpu"
    ENHANCED = "enhanced"
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
