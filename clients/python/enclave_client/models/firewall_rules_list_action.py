from enum import StrEnum


class FirewallRulesListAction(StrEnum):
    ALLOW = "allow"
    DROP = "drop"
    REJECT = "reject"

    def __str__(self) -> str:
        return str(self.value)
