from enum import StrEnum


class LinkTypeEnum(StrEnum):
    ETHERNET = "ethernet"
    INFINIBAND = "infiniband"

    def __str__(self) -> str:
        return str(self.value)
