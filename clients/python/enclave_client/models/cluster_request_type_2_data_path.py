from enum import StrEnum


class ClusterRequestType2DataPath(StrEnum):
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
