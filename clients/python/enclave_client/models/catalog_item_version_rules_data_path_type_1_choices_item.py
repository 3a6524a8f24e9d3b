from enum import StrEnum


class CatalogItemVersionRulesDataPathType1ChoicesItem(StrEnum):
    DPU = "dpu"
    ENHANCED = "enhanced"
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
