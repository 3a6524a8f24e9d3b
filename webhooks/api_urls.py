"""Router registrations of the webhooks API; portal/api_urls.py calls register(router)."""

from webhooks.api import DeliveryViewSet, WebhookViewSet


def register(router) -> None:
    """Add the webhooks endpoints to the project's /api/v1/ router."""
    router.register("webhooks", WebhookViewSet, basename="webhook")
    router.register("webhook-deliveries", DeliveryViewSet, basename="webhookdelivery")
