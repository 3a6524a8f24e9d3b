from enum import StrEnum


class ApprovableSiteKindEnum(StrEnum):
    VSPHERE = "vsphere"

    def __str__(self) -> str:
        return str(self.value)
