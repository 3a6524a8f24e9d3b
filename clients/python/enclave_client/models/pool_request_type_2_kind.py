from enum import StrEnum


class PoolRequestType2Kind(StrEnum):
    IPV4 = "ipv4"

    def __str__(self) -> str:
        return str(self.value)
