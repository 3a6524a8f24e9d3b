from enum import StrEnum


class PhysicalFunctionsListSource(StrEnum):
    DISCOVERED = "discovered"
    MANUAL = "manual"

    def __str__(self) -> str:
        return str(self.value)
