from enum import StrEnum


class CatalogRequestRequestValuesNetworkMode(StrEnum):
    OVERLAY = "overlay"
    VLAN = "vlan"

    def __str__(self) -> str:
        return str(self.value)
