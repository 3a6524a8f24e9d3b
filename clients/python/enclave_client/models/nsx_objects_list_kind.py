from enum import StrEnum


class NsxObjectsListKind(StrEnum):
    GROUP = "group"
    POLICY = "policy"
    RULE = "rule"
    SEGMENT = "segment"
    SERVICE = "service"
    TIER1 = "tier1"

    def __str__(self) -> str:
        return str(self.value)
