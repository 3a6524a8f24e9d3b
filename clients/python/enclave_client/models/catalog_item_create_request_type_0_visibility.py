from enum import StrEnum


class CatalogItemCreateRequestType0Visibility(StrEnum):
    ALL = "all"

    def __str__(self) -> str:
        return str(self.value)
