from enum import StrEnum


class SiteKindEnum(StrEnum):
    NONE = "none"
    VSPHERE = "vsphere"

    def __str__(self) -> str:
        return str(self.value)
