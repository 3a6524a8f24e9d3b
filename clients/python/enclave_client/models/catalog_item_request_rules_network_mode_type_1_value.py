from enum import StrEnum


class CatalogItemRequestRulesNetworkModeType1Value(StrEnum):
    OVERLAY = "overlay"
    VLAN = "vlan"

    def __str__(self) -> str:
        return str(self.value)
