from enum import StrEnum


class DeliveryStateEnum(StrEnum):
    FAILED = "failed"
    PENDING = "pending"
    RETRYING = "retrying"
    SENDING = "sending"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
