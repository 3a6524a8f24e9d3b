from enum import StrEnum


class CatalogItemDetailRulesInterconnectType1Value(StrEnum):
    DIRECTPATH = "directpath"
    NONE = "none"
    PVRDMA = "pvrdma"
    SRIOV_IB = "sriov-ib"
    SRIOV_ROCE = "sriov-roce"

    def __str__(self) -> str:
        return str(self.value)
