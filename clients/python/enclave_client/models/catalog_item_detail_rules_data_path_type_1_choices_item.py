from enum import StrEnum


class CatalogItemDetailRulesDataPathType1ChoicesItem(StrEnum):
    DPU = "dpu"
    ENHANCED = "enhanced"
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
