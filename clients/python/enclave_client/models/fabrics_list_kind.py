from enum import StrEnum


class FabricsListKind(StrEnum):
    OPENSM = "opensm"
    UFM = "ufm"

    def __str__(self) -> str:
        return str(self.value)
