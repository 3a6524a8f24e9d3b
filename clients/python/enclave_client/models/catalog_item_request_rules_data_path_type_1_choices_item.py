from enum import StrEnum


class CatalogItemRequestRulesDataPathType1ChoicesItem(StrEnum):
    DPU = "dpu"
    ENHANCED = "enhanced"
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
