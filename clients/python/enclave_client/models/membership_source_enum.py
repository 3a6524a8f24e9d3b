from enum import StrEnum


class MembershipSourceEnum(StrEnum):
    DIRECTORY = "directory"
    LOCAL = "local"

    def __str__(self) -> str:
        return str(self.value)
