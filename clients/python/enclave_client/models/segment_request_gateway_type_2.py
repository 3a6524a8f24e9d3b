from enum import StrEnum


class SegmentRequestGatewayType2(StrEnum):
    VALUE_0 = ""

    def __str__(self) -> str:
        return str(self.value)
