"""Abuse entries of the notices app: the user's own notification preferences and notices pages."""

from tests.security.framework import Abuse


def add_objects(world) -> None:
    """Tenant A's owner's notice (preferences belong to whoever is logged in)."""
    from notices.models import Notice

    world.notice_a = Notice.objects.create(user=world.owner_a, kind="cluster", subject="tenant-a/mpi-1 submitted")


# fmt: off
ENTRIES = [
    Abuse("Someone without a session turns off a user's e-mail notices", "notices:preferences", "post",
          body={"approve": "", "endorse": ""}, attackers=("anonymous",), refused=frozenset(), control="owner_a"),
    Abuse("Another user, even a site admin, marks tenant A's owner's notice read", "notices:notice-read", "post",
          target="notice_a", attackers=("owner_b", "member_a", "admin", "anonymous"), refused=frozenset({404}),
          control="owner_a"),
]
# fmt: on

PENDING: dict = {}

EXEMPT: dict = {}
