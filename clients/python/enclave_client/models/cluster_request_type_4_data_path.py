from enum import StrEnum


class ClusterRequestType4DataPath(StrEnum):
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
