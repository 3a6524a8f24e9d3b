from enum import StrEnum


class CatalogItemCreateRequestType1Visibility(StrEnum):
    TENANTS = "tenants"

    def __str__(self) -> str:
        return str(self.value)
