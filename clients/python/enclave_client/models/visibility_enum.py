from enum import StrEnum


class VisibilityEnum(StrEnum):
    ALL = "all"
    TENANTS = "tenants"

    def __str__(self) -> str:
        return str(self.value)
