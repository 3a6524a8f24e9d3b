from enum import StrEnum


class PoolRequestType3Kind(StrEnum):
    IPV6 = "ipv6"

    def __str__(self) -> str:
        return str(self.value)
