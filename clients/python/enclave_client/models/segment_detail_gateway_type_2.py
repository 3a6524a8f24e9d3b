from enum import StrEnum


class SegmentDetailGatewayType2(StrEnum):
    VALUE_0 = ""

    def __str__(self) -> str:
        return str(self.value)
