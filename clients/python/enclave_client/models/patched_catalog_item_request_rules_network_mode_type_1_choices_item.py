from enum import StrEnum


class PatchedCatalogItemRequestRulesNetworkModeType1ChoicesItem(StrEnum):
    OVERLAY = "overlay"
    VLAN = "vlan"

    def __str__(self) -> str:
        return str(self.value)
