"""Access-matrix entries for the netpolicy routes, for tests/access.py to merge.

tests/access.py:          MATRIX |= NETPOLICY_MATRIX; EXEMPT |= NETPOLICY_EXEMPT
tests/test_access_matrix.py, at the end of Objects.__init__:  add_netpolicy_objects(self)
"""

NETPOLICY_MATRIX = {
    "pool-list": ("get", "list", "np_pool_a"),
    "pool-detail": ("get", "detail", "np_pool_a"),
    "segment-list": ("get", "list", "np_segment_a"),
    "segment-detail": ("get", "detail", "np_segment_a"),
    "segment-approve": ("post", "action", "np_segment_a"),
    "segment-reject": ("post", "action", "np_segment_a"),
    "segment-retire": ("post", "action", "np_segment_a"),
    "service-list": ("get", "list", None),
    "group-list": ("get", "list", "np_group_a"),
    "group-detail": ("get", "detail", "np_group_a"),
    "firewallpolicy-list": ("get", "list", "np_policy_a"),
    "firewallpolicy-detail": ("get", "detail", "np_policy_a"),
    "firewallrule-list": ("get", "list", "np_rule_a"),
    "firewallrule-detail": ("get", "detail", "np_rule_a"),
    "netpolicy-export-nft": ("get", "admin", None),
    "netpolicy-export-nsx": ("get", "admin", None),
    "netpolicy:segment-list": ("get", "list", "np_segment_a"),
    "netpolicy:rule-list": ("get", "list", "np_rule_a"),
    "netpolicy:what-if": ("post", "list", None),
    "netpolicy:segment-create": ("get", "list", None),
    "netpolicy:segment-detail": ("get", "detail", "np_segment_a"),
    "netpolicy:segment-approve": ("post", "action", "np_segment_a"),
    "netpolicy:segment-reject": ("post", "action", "np_segment_a"),
    "netpolicy:segment-retire": ("post", "action", "np_segment_a"),
    "netpolicy:pool-create": ("get", "admin", None),
    "netpolicy:site-settings": ("get", "admin", None),
    "netpolicy:service-create": ("get", "admin", None),
    "netpolicy:service-request": ("get", "list", None),
    # Edit forms are GETs with "action" semantics: tenant B gets 404, a member of A 403 (owners
    # and site admins only edit), which tests/netpolicy/test_netpolicy_db_forms.py checks exactly.
    "netpolicy:rule-create": ("get", "action", "np_policy_a"),
    "netpolicy:rule-edit": ("get", "action", "np_rule_a"),
    "netpolicy:rule-move": ("post", "action", "np_rule_a"),
    "netpolicy:group-edit": ("get", "action", "np_group_a"),
    "netpolicy:group-create": ("get", "action", "tenant_a"),  # tenant A's new-group form
    "netpolicy:group-delete": ("get", "action", "np_group_a"),  # a GET only shows the confirmation
    "netpolicy:rule-delete": ("get", "action", "np_rule_a"),
}
# The service catalogue is site-wide and carries no tenant data; what-if is a POST that answers
# non-admins only about their own tenants' traffic (tests/netpolicy/test_netpolicy_db_whatif.py and
# the abuse table cover it).
NETPOLICY_EXEMPT = {"service-detail", "what-if-list"}


def add_netpolicy_objects(objects) -> None:
    """Tenant A's netpolicy objects: a reserved pool, a segment, a group, a policy, a rule."""
    from netpolicy import allocation, segments
    from netpolicy.models import FirewallPolicy, Group

    world = objects.world
    objects.np_pool_a = allocation.create_pool(
        world.admin, {"name": "a-vlans", "kind": "vlan", "first": 100, "last": 199, "tenant": world.tenant_a}
    )
    allocation.create_pool(
        world.admin, {"name": "v4", "kind": "ipv4", "cidr": "10.64.0.0/16", "default_prefix_length": 24}
    )
    objects.np_segment_a = segments.create_segment(world.tenant_a, world.member_a, {"name": "net", "kind": "vlan"})
    objects.np_group_a = Group.objects.get(tenant=world.tenant_a, name="all")
    objects.np_policy_a = FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation")
    objects.np_rule_a = objects.np_policy_a.rules.get(name="intra_tenant")
