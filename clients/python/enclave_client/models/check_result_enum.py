from enum import StrEnum


class CheckResultEnum(StrEnum):
    FAILED = "failed"
    NEVER = "never"
    OK = "ok"
    QUEUED = "queued"

    def __str__(self) -> str:
        return str(self.value)
