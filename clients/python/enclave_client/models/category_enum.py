from enum import StrEnum


class CategoryEnum(StrEnum):
    APPLICATION = "application"
    EMERGENCY = "emergency"
    ENVIRONMENT = "environment"
    INFRASTRUCTURE = "infrastructure"

    def __str__(self) -> str:
        return str(self.value)
