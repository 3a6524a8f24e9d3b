from enum import StrEnum


class GroupsListRole(StrEnum):
    LOGIN = "login"
    MANAGER = "manager"
    WORKER = "worker"

    def __str__(self) -> str:
        return str(self.value)
