"""The identity app's routes in the access matrix (merged by tests/access.py)."""

IDENTITY_MATRIX = {
    "identity:rule-list": ("get", "admin", None),
    "identity:rule-delete": ("post", "admin", "group_rule"),
}
# Sign-in routes, like login and logout: the OpenID flow's start, the provider's redirect back, logout.
IDENTITY_EXEMPT = {"oidc_authentication_init", "oidc_authentication_callback", "oidc_logout"}


def add_identity_objects(objects) -> None:
    """A site group rule (it belongs to no tenant: only site admins see or remove it)."""
    from identity.models import GroupRule

    objects.group_rule = GroupRule.objects.create(group="hpc-a", action="member", tenant_slug="tenant-a")
