from enum import StrEnum


class PatchedCatalogItemRequestRulesNetworkModeType0Value(StrEnum):
    OVERLAY = "overlay"
    VLAN = "vlan"

    def __str__(self) -> str:
        return str(self.value)
