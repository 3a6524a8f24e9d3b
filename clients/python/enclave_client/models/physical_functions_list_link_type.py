from enum import StrEnum


class PhysicalFunctionsListLinkType(StrEnum):
    ETHERNET = "ethernet"
    INFINIBAND = "infiniband"

    def __str__(self) -> str:
        return str(self.value)
