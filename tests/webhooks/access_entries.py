"""The webhooks app's routes in the access matrix (merged by tests/access.py).

Webhooks are the owners' ("owner": owner A and site admins 200, everyone else 404): their URLs may hold a
receiver's token, so members do not see them. Delete comes last: it removes the object the others use.
"""

WEBHOOKS_MATRIX = {
    "webhook-list": ("get", "list", "webhook_a"),
    "webhook-detail": ("get", "owner", "webhook_a"),
    "webhook-rotate-secret": ("post", "owner", "webhook_a"),
    "webhook-test": ("post", "owner", "webhook_a"),
    "webhookdelivery-list": ("get", "list", "delivery_a"),
    "webhookdelivery-detail": ("get", "owner", "delivery_a"),
    "webhookdelivery-replay": ("post", "owner", "delivery_a"),
    "webhooks:webhook-list": ("get", "list", None),
    "webhooks:webhook-detail": ("get", "owner", "webhook_a"),
    "webhooks:webhook-rotate": ("post", "owner", "webhook_a"),
    "webhooks:webhook-test": ("post", "owner", "webhook_a"),
    "webhooks:delivery-replay": ("post", "owner", "delivery_a"),
    "webhooks:webhook-delete": ("post", "owner", "webhook_a"),
}
WEBHOOKS_EXEMPT: set = set()


def add_webhook_objects(objects) -> None:
    """Tenant A's webhook (nothing listens at its URL) and one finished delivery of it."""
    from webhooks import services
    from webhooks.models import Delivery

    world = objects.world
    objects.webhook_a, _ = services.create_webhook(world.owner_a, world.tenant_a, {
        "name": "ci", "url": "https://hooks.example.org/a", "events": ["cluster.state_changed"]})  # fmt: skip
    objects.delivery_a = Delivery.objects.create(webhook=objects.webhook_a, tenant=world.tenant_a,
                                                 event_type="webhook.test", payload={}, state="succeeded")  # fmt: skip
