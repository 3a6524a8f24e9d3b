"""Abuse entries of the webhooks app: a tenant's owners manage its webhooks, site admins the site's; every
URL is checked against the SSRF rules and every event and condition against a strict grammar."""

from tests.security.framework import Abuse, Ref

NOT_OWNERS = ("member_a", "owner_b", "anonymous", "node_b")
HOOK = {"tenant": Ref("tenant_a"), "name": "ops", "url": "https://hooks.example.org/ops",
        "events": ["cluster.state_changed"], "conditions": {"states": ["ready"]}, "enabled": True}  # fmt: skip
PAGE_HOOK = {"tenant": Ref("tenant_a"), "name": "ops", "url": "https://hooks.example.org/ops",
             "events": ["cluster.state_changed"], "states": "ready", "enabled": "on"}  # fmt: skip


def add_objects(world) -> None:
    """Tenant A's webhook (nothing listens at its URL), a finished delivery of it, and a site webhook."""
    from webhooks import services
    from webhooks.models import Delivery

    world.webhook_a, _ = services.create_webhook(world.owner_a, world.tenant_a, {
        "name": "ci", "url": "https://hooks.example.org/a", "events": ["cluster.state_changed"]})  # fmt: skip
    world.webhook_site, _ = services.create_webhook(world.admin, None, {
        "name": "noc", "url": "https://noc.example.org/hook", "events": ["node.not_ready"]})  # fmt: skip
    world.delivery_a = Delivery.objects.create(webhook=world.webhook_a, tenant=world.tenant_a,
                                               event_type="webhook.test", payload={}, state="failed")  # fmt: skip


def _bad(attack: str, body: dict, method: str = "patch") -> Abuse:
    """Tenant A's owner sends a value the grammar refuses: 400 for the owner (and a site admin)."""
    route, target = ("webhook-list", None) if method == "post" else ("webhook-detail", "webhook_a")
    return Abuse(attack, route, method, target=target, body=body, attackers=("owner_a", "admin"),
                 refused=frozenset({400}))  # fmt: skip


# fmt: off
ENTRIES = [
    Abuse("A member or another tenant's owner adds a webhook to tenant A (to read its events)", "webhook-list",
          "post", body=HOOK, attackers=NOT_OWNERS, refused=frozenset({400}), control="owner_a"),
    Abuse("A tenant owner adds a site webhook (every tenant's events)", "webhook-list", "post",
          body={**HOOK, "tenant": None}, attackers=("owner_a", "member_a", "owner_b"), refused=frozenset({403}),
          control="admin"),
    Abuse("Someone outside tenant A's owners redirects its webhook to their own host", "webhook-detail", "patch",
          target="webhook_a", body={"url": "https://evil.example.org/x"}, attackers=NOT_OWNERS,
          refused=frozenset({404}), control="owner_a"),
    Abuse("Someone outside tenant A's owners replaces its webhook", "webhook-detail", "put", target="webhook_a",
          body=HOOK, attackers=NOT_OWNERS, refused=frozenset({404}), control="owner_a"),
    Abuse("Someone outside tenant A's owners deletes its webhook", "webhook-detail", "delete", target="webhook_a",
          attackers=NOT_OWNERS, refused=frozenset({404})),
    Abuse("A tenant owner changes the site's webhook", "webhook-detail", "patch", target="webhook_site",
          body={"url": "https://evil.example.org/x"}, attackers=("owner_a", "owner_b"), refused=frozenset({404})),
    Abuse("Someone outside tenant A's owners rotates its secret (and reads the new one)", "webhook-rotate-secret",
          "post", target="webhook_a", attackers=NOT_OWNERS, refused=frozenset({404}), control="owner_a"),
    Abuse("Someone outside tenant A's owners fires test deliveries at its receiver", "webhook-test", "post",
          target="webhook_a", attackers=NOT_OWNERS, refused=frozenset({404}), control="owner_a"),
    Abuse("Someone outside tenant A's owners replays its deliveries", "webhookdelivery-replay", "post",
          target="delivery_a", attackers=NOT_OWNERS, refused=frozenset({404}), control="owner_a"),
    Abuse("A webhook moved to another tenant (to hear B's events)", "webhook-detail", "patch", target="webhook_a",
          body={"tenant": Ref("tenant_b")}, attackers=("owner_a", "admin"), refused=frozenset({400})),
    _bad("A webhook at a loopback address (SSRF)", {"url": "https://127.0.0.1:8000/admin/"}),
    _bad("A webhook at the cloud metadata address (SSRF)", {"url": "https://169.254.169.254/latest/meta-data/"}),
    _bad("A webhook at a private address (SSRF)", {"url": "https://10.0.0.5/hook"}),
    _bad("A webhook at an IPv6 loopback (SSRF)", {"url": "https://[::1]/hook"}),
    _bad("A plain-http webhook (events readable on the wire)", {"url": "http://hooks.example.org/x"}),
    _bad("A webhook URL with credentials in it", {"url": "https://user:pw@hooks.example.org/x"}),
    _bad("A webhook URL with a header injection", {"url": "https://hooks.example.org/x\r\nX-Evil: 1"}),
    _bad("A file:// webhook URL", {"url": "file:///etc/passwd"}),
    _bad("A tenant webhook subscribes to the site's node events", {"events": ["node.not_ready"]}),
    _bad("An event type that does not exist", {"events": ["cluster.*"]}),
    _bad("No events at all", {"events": []}),
    _bad("A tenant webhook filters on other tenants", {"conditions": {"tenants": ["sec-b"]}}),
    _bad("A condition key that does not exist", {"conditions": {"sql": ["1=1"]}}),
    _bad("A condition value with shell characters", {"conditions": {"states": ["ready; rm -rf /"]}}),
    _bad("A webhook name with spaces and markup", {"name": "<b>x</b> y"}),
    _bad("Enabled given as a word", {"enabled": "maybe"}),
    _bad("A second webhook of the same name", {**HOOK, "name": "ci"}, method="post"),
    # Pages
    Abuse("A member or another tenant's owner adds a webhook to tenant A from the page", "webhooks:webhook-list",
          "post", body=PAGE_HOOK, attackers=("member_a", "owner_b"), refused=frozenset({200}),
          by_role={"anonymous": frozenset({302})}, control="owner_a"),
    Abuse("Someone outside tenant A's owners edits its webhook from the page", "webhooks:webhook-detail", "post",
          target="webhook_a", body=PAGE_HOOK, attackers=("member_a", "owner_b", "anonymous"),
          refused=frozenset({404}), control="owner_a"),
    Abuse("Someone outside tenant A's owners rotates its secret from the page", "webhooks:webhook-rotate", "post",
          target="webhook_a", attackers=("member_a", "owner_b", "anonymous"), refused=frozenset({404})),
    Abuse("Someone outside tenant A's owners fires test deliveries from the page", "webhooks:webhook-test", "post",
          target="webhook_a", attackers=("member_a", "owner_b", "anonymous"), refused=frozenset({404})),
    Abuse("Someone outside tenant A's owners deletes its webhook from the page", "webhooks:webhook-delete", "post",
          target="webhook_a", attackers=("member_a", "owner_b", "anonymous"), refused=frozenset({404})),
    Abuse("Someone outside tenant A's owners replays its deliveries from the page", "webhooks:delivery-replay",
          "post", target="delivery_a", attackers=("member_a", "owner_b", "anonymous"), refused=frozenset({404})),
    Abuse("A loopback webhook from the page (SSRF)", "webhooks:webhook-list", "post",
          body={**PAGE_HOOK, "url": "https://127.0.0.1/x"}, attackers=("owner_a",), refused=frozenset({200})),
]
# fmt: on

PENDING: dict = {}

EXEMPT: dict = {}
