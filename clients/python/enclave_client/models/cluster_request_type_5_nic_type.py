from enum import StrEnum


class ClusterRequestType5NicType(StrEnum):
    VMXNET3 = "vmxnet3"

    def __str__(self) -> str:
        return str(self.value)
