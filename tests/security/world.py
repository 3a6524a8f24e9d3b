"""The abuse world: tenants A and B with an owner and a member each, a site admin, two nodes, and
each app's objects (added by the `add_objects` of every entries module)."""

from django.contrib.auth import get_user_model

from tenants import services
from tenants.choices import Role


class AbuseWorld:
    """Everything the abuse entries name; built once per module inside a transaction rolled back at the end."""

    def __init__(self, modules):
        users = get_user_model().objects
        self.admin = users.create_user("sec-admin", "sec-admin@example.org", "pw-sec-admin", is_staff=True)
        for name in ("owner_a", "member_a", "owner_b", "member_b"):
            username = name.replace("_", "-")
            setattr(self, name, users.create_user(f"sec-{username}", f"sec-{username}@example.org", "pw"))
        self.tenant_a = services.create_tenant("sec-a", "Tenant A", owner=self.owner_a)
        self.tenant_b = services.create_tenant("sec-b", "Tenant B", owner=self.owner_b)
        services.set_membership(self.tenant_a, self.member_a, Role.MEMBER)
        services.set_membership(self.tenant_b, self.member_b, Role.MEMBER)
        for module in modules:
            module.add_objects(self)
