from enum import StrEnum


class PoolKindEnum(StrEnum):
    CGNAT = "cgnat"
    IPV4 = "ipv4"
    IPV6 = "ipv6"
    VLAN = "vlan"
    VNI = "vni"

    def __str__(self) -> str:
        return str(self.value)
