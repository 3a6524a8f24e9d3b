from enum import StrEnum


class AuditEventsExportRetrieveAs(StrEnum):
    CSV = "csv"
    JSON = "json"

    def __str__(self) -> str:
        return str(self.value)
