from enum import StrEnum


class AuditEventsListActorKind(StrEnum):
    AGENT = "agent"
    SYSTEM = "system"
    USER = "user"
    WORKER = "worker"

    def __str__(self) -> str:
        return str(self.value)
