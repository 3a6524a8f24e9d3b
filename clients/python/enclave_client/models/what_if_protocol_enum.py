from enum import StrEnum


class WhatIfProtocolEnum(StrEnum):
    ICMP = "icmp"
    TCP = "tcp"
    UDP = "udp"

    def __str__(self) -> str:
        return str(self.value)
