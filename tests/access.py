"""The access matrix: every route, every role. Apps add their routes to MATRIX or EXEMPT.

Each entry maps a URL name to (method, kind, object factory). Kinds:
- "list":   anonymous 401/redirect; every signed-in role 200, and nobody outside tenant A sees A's object.
- "detail": A's object — tenant A's members and site admins 200; tenant B 404; anonymous 401/redirect.
- "own":    an object only its owner sees (API tokens): owner-a 200, everyone else 404.
- "owner":  an object the tenant's owners manage (webhooks): owner-a and site admins 200, others 404.
- "admin":  site admins only: others 404 (or 403 for API writes), anonymous 401/redirect.
- "action": a POST on A's object — tenant B gets 404, anonymous 401/redirect (roles inside A are
            covered by the lifecycle tests).
"""

ROLES = ("owner_a", "member_a", "owner_b", "admin", "anonymous")

# Routes that carry no tenant data or belong to a framework's own access control.
EXEMPT = {
    "login", "logout", "schema", "api-docs", "healthz", "metrics", "api-root",
    # Node-credential endpoints: tests/test_agents_api.py proves node-scoping and refusal of user logins.
    "agent-join", "agent-desired-state", "agent-observed-state", "agent-credential",
}  # fmt: skip
EXEMPT_PREFIXES = ("admin:",)  # Django admin: staff-only by Django itself

MATRIX = {
    # API: tenants app
    "tenant-list": ("get", "list", "tenant_a"),
    "tenant-detail": ("get", "detail", "tenant_a"),
    "membership-list": ("get", "list", "membership_a"),
    "membership-detail": ("get", "detail", "membership_a"),
    "quota-list": ("get", "list", "quota_a"),
    "quota-detail": ("get", "detail", "quota_a"),
    "virtualcluster-list": ("get", "list", "cluster_a"),
    "virtualcluster-detail": ("get", "detail", "cluster_a"),
    "virtualcluster-submit": ("post", "action", "cluster_a"),
    "virtualcluster-endorse": ("post", "action", "cluster_a"),
    "virtualcluster-approve": ("post", "action", "cluster_a"),
    "virtualcluster-reject": ("post", "action", "cluster_a"),
    "virtualcluster-decommission": ("post", "action", "cluster_a"),
    "virtualcluster-extend-lease": ("post", "action", "cluster_a"),
    "virtualcluster-approve-extension": ("post", "action", "cluster_a"),
    "virtualcluster-reject-extension": ("post", "action", "cluster_a"),
    "virtualcluster-resize": ("post", "action", "cluster_a"),
    "virtualcluster-access": ("get", "detail", "cluster_a"),
    "auditevent-list": ("get", "list", "event_a"),
    "auditevent-detail": ("get", "detail", "event_a"),
    "auditevent-export": ("get", "list", "event_a"),
    "apitoken-list": ("get", "list", "token_a"),
    "apitoken-detail": ("get", "own", "token_a"),
    "apitoken-revoke": ("post", "own", "token_a"),
    "me": ("get", "list", None),  # the caller's own account and tenants
    # API: agents app (inventory is site-admin only; agent endpoints take node credentials, tested separately)
    "nodepool-list": ("get", "admin", None),
    "nodepool-detail": ("get", "admin", "pool"),
    "poolsubnet-list": ("get", "admin", None),
    "poolsubnet-detail": ("get", "admin", "pool_subnet"),
    "node-list": ("get", "admin", None),
    "node-detail": ("get", "admin", "node"),
    "node-revoke-credential": ("post", "admin", "node"),
    "jointoken-list": ("get", "admin", None),
    "jointoken-detail": ("get", "admin", "join_token"),
    # API: vsphere app (inventory is site-admin only; VF assignments, plans and logs are tenant-scoped)
    "vcenter-list": ("get", "admin", None),
    "vcenter-detail": ("get", "admin", "vcenter"),
    "vcenter-discover": ("post", "admin", "vcenter"),
    "vsphere-host-list": ("get", "admin", None),
    "vsphere-host-detail": ("get", "admin", "vsphere_host"),
    "physicalfunction-list": ("get", "admin", None),
    "physicalfunction-detail": ("get", "admin", "pf"),
    "vfassignment-list": ("get", "list", "vf_assignment_a"),
    "pcidevice-list": ("get", "admin", None),
    "pcidevice-detail": ("get", "admin", "pci_device"),
    "vgpuprofile-list": ("get", "admin", None),
    "vgpuprofile-detail": ("get", "admin", "vgpu_profile"),
    "deviceassignment-list": ("get", "list", "device_assignment_a"),
    "deviceassignment-detail": ("get", "detail", "device_assignment_a"),
    "vsphere:devices": ("get", "admin", None),
    "vfassignment-detail": ("get", "detail", "vf_assignment_a"),
    "vsphere-capacity": ("get", "admin", None),
    "cluster-vsphere-plan": ("get", "detail", "cluster_a"),
    "cluster-vsphere-operations": ("get", "detail", "cluster_a"),
    # Site settings: every signed-in role reads the shared servers (writes: tests/netpolicy/test_ipam.py)
    "site-settings": ("get", "list", None),
    # Pages
    "frontend:home": ("get", "list", "cluster_a"),
    "frontend:cluster-list": ("get", "list", "cluster_a"),
    "frontend:cluster-create": ("get", "list", None),
    "frontend:cluster-detail": ("get", "detail", "cluster_a"),
    "frontend:cluster-action": ("post", "action", "cluster_a"),
    "frontend:approvals": ("get", "list", None),
    "frontend:audit": ("get", "list", "event_a"),
    "frontend:tokens": ("get", "list", None),
    "frontend:token-revoke": ("post", "own", "token_a"),
    "frontend:tenant-list": ("get", "admin", None),
    "frontend:tenant-detail": ("get", "admin", "tenant_a"),
    "frontend:membership-remove": ("post", "admin", "membership_a"),
    # Pages: notices app (the user's own preferences; no tenant data)
    "notices:preferences": ("get", "list", None),
    "notices:list": ("get", "list", None),
    "notices:notice-read": ("post", "own", "notice_a"),  # only the notice's own user; others 404
    "agents:node-list": ("get", "admin", None),
    "agents:node-detail": ("get", "admin", "node"),
    "agents:node-revoke-credential": ("post", "admin", "node"),
    "agents:join-token-create": ("post", "admin", "pool"),
    "vsphere:capacity": ("get", "admin", None),
    "vsphere:vcenter-list": ("get", "admin", None),
    "vsphere:vcenter-detail": ("get", "admin", "vcenter"),
    "vsphere:vcenter-discover": ("post", "admin", "vcenter"),
    "vsphere:pf-list": ("get", "admin", None),
    "vsphere:cluster-plan": ("get", "detail", "cluster_a"),
    "vsphere:cluster-operations": ("get", "detail", "cluster_a"),
}


# Other apps keep their entries next to their tests.
from tests.catalog.access_entries import CATALOG_EXEMPT, CATALOG_MATRIX  # noqa: E402
from tests.fabrics.access_entries import FABRICS_EXEMPT, FABRICS_MATRIX  # noqa: E402
from tests.identity.access_entries import IDENTITY_EXEMPT, IDENTITY_MATRIX  # noqa: E402
from tests.netpolicy.access_entries import NETPOLICY_EXEMPT, NETPOLICY_MATRIX  # noqa: E402
from tests.nsx.access_entries import NSX_EXEMPT, NSX_MATRIX  # noqa: E402
from tests.webhooks.access_entries import WEBHOOKS_EXEMPT, WEBHOOKS_MATRIX  # noqa: E402

MATRIX |= NETPOLICY_MATRIX | CATALOG_MATRIX | IDENTITY_MATRIX | NSX_MATRIX | WEBHOOKS_MATRIX
EXEMPT |= NETPOLICY_EXEMPT | CATALOG_EXEMPT | IDENTITY_EXEMPT | NSX_EXEMPT | WEBHOOKS_EXEMPT
MATRIX |= FABRICS_MATRIX
EXEMPT |= FABRICS_EXEMPT
