"""Abuse entries of the identity app: the site's directory group rules (site admins only)."""

from tests.security.framework import Abuse

NOT_ADMINS = ("owner_a", "member_a", "owner_b", "anonymous", "node_b")


def add_objects(world) -> None:
    """A rule granting membership of tenant A to a directory group."""
    from identity.models import GroupRule

    world.group_rule = GroupRule.objects.create(group="hpc-sec-a", action="member", tenant_slug="sec-a")


# fmt: off
ENTRIES = [
    Abuse("A tenant owner maps their own directory group to site admin", "identity:rule-list", "post",
          body={"group": "my-friends", "action": "site_admin"}, attackers=NOT_ADMINS,
          refused=frozenset({404}), control="admin"),
    Abuse("A tenant owner maps their directory group to owner of another tenant", "identity:rule-list", "post",
          body={"group": "my-friends", "action": "owner", "tenant_slug": "sec-a"}, attackers=NOT_ADMINS,
          refused=frozenset({404}), control="admin"),
    Abuse("A tenant owner has a tenant created for their group at its first sign-in", "identity:rule-list", "post",
          body={"group": "my-friends", "action": "owner", "tenant_slug": "free-tenant", "create_tenant": "on"},
          attackers=NOT_ADMINS, refused=frozenset({404}), control="admin"),
    Abuse("A tenant owner removes the rule that makes another group members", "identity:rule-delete", "post",
          target="group_rule", attackers=NOT_ADMINS, refused=frozenset({404}), control="admin"),
]
# fmt: on

PENDING: dict = {}

EXEMPT: dict = {
    "oidc_logout": "ends the caller's own session (and their provider session) only, like logout",
}
