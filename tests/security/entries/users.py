"""Abuse entries of the users app: personal API tokens and their page."""

from tests.security.framework import Abuse

EXPIRED = "2000-01-01T00:00:00Z"


def add_objects(world) -> None:
    """Tenant A's owner's token."""
    from users.services import create_token

    world.token_a, _ = create_token(world.owner_a, "sec-ci")


# fmt: off
ENTRIES = [
    Abuse("Someone without a session mints a token", "apitoken-list", "post",
          body={"name": "mine", "expires_at": None}, attackers=("anonymous", "node_b"), refused=frozenset(),
          control="owner_a"),
    Abuse("A token that is already expired is refused", "apitoken-list", "post",
          body={"name": "old", "expires_at": EXPIRED}, attackers=("owner_a", "admin"), refused=frozenset({400})),
    Abuse("Another user, even a site admin, revokes tenant A's owner's token", "apitoken-revoke", "post",
          target="token_a", attackers=("owner_b", "member_a", "admin", "anonymous", "node_b"),
          refused=frozenset({404}), control="owner_a"),
    Abuse("A token that outlives the site's maximum lifetime is refused, even for a write scope",
          "apitoken-list", "post", body={"name": "forever", "scope": "write", "expires_at": "2999-01-01T00:00:00Z"},
          attackers=("owner_a", "admin"), refused=frozenset({400})),
    Abuse("A token with a scope that does not exist is refused", "apitoken-list", "post",
          body={"name": "root", "scope": "admin"}, attackers=("owner_a", "admin"), refused=frozenset({400})),
    Abuse("Someone without a session mints a token on the page", "frontend:tokens", "post",
          body={"name": "mine"}, attackers=("anonymous",), refused=frozenset(), control="owner_a"),
    Abuse("Another user, even a site admin, revokes a token on the page", "frontend:token-revoke", "post",
          target="token_a", attackers=("owner_b", "member_a", "admin", "anonymous"), refused=frozenset({404}),
          control="owner_a"),
]
# fmt: on

PENDING: dict = {}

EXEMPT = {
    "login": "authentication itself: lockout and throttles are tested in tests/test_authentication.py",
    "logout": "ends the caller's own session only",
}
