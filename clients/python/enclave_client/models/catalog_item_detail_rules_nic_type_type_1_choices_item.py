from enum import StrEnum


class CatalogItemDetailRulesNicTypeType1ChoicesItem(StrEnum):
    E1000E = "e1000e"
    VMXNET3 = "vmxnet3"

    def __str__(self) -> str:
        return str(self.value)
