"""Abuse entries of the notices app: the user's own notification preferences page."""

from tests.security.framework import Abuse


def add_objects(world) -> None:
    """Nothing: preferences belong to whoever is logged in."""


# fmt: off
ENTRIES = [
    Abuse("Someone without a session turns off a user's e-mail notices", "notices:preferences", "post",
          body={"approve": "", "endorse": ""}, attackers=("anonymous",), refused=frozenset(), control="owner_a"),
]
# fmt: on

PENDING: dict = {}

EXEMPT: dict = {}
