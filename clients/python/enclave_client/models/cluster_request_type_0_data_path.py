from enum import StrEnum


class ClusterRequestType0DataPath(StrEnum):
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
