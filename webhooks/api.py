"""REST API of the webhooks app: a tenant's owners manage its webhooks, site admins the site's; delivery log."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from tenants.access import is_site_admin, tenant_ids
from tenants.choices import Role
from webhooks import services
from webhooks.filtersets import DeliveryFilterSet, WebhookFilterSet
from webhooks.models import Delivery, Webhook
from webhooks.serializers import DeliverySerializer, WebhookCreatedSerializer, WebhookSerializer


def managed(queryset, user, field: str = "tenant"):
    """What the user manages: site admins everything; owners their tenants' (members nothing: URLs may hold tokens)."""
    if is_site_admin(user):
        return queryset
    return queryset.filter(**{f"{field}__in": tenant_ids(user, Role.OWNER)})


class WebhookViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                     mixins.UpdateModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet):  # fmt: skip
    """Webhooks: an endpoint, the events it wants and optional conditions; signed Standard Webhooks deliveries."""

    queryset = Webhook.objects.select_related("tenant").prefetch_related("secrets").order_by("tenant_id", "name")
    serializer_class = WebhookSerializer
    filterset_class = WebhookFilterSet

    def get_queryset(self):
        return managed(super().get_queryset(), self.request.user).defer("url")  # never read here: not decrypted

    @extend_schema(responses=WebhookCreatedSerializer)
    def create(self, request, *args, **kwargs):
        """Create a webhook; the answer carries its signing secret, shown this once."""
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        hook, secret = services.create_webhook(request.user, data.pop("tenant", None), data)
        return Response(WebhookCreatedSerializer(hook).data | {"secret": secret}, status=201)

    def perform_update(self, serializer):
        data = dict(serializer.validated_data)
        data.pop("tenant", None)
        serializer.instance = services.update_webhook(self.request.user, serializer.instance, data)

    def perform_destroy(self, instance):
        services.delete_webhook(self.request.user, instance)

    @extend_schema(request=None, responses=WebhookCreatedSerializer)
    @action(detail=True, methods=["post"], url_path="rotate-secret")
    def rotate_secret(self, request, pk=None):
        """A new signing secret (shown once); the old ones keep signing for the overlap, then stop."""
        hook = self.get_object()
        secret = services.rotate_secret(request.user, hook)
        return Response(WebhookCreatedSerializer(self.get_queryset().get(pk=hook.pk)).data | {"secret": secret})

    @extend_schema(request=None, responses={202: DeliverySerializer})
    @action(detail=True, methods=["post"])
    def test(self, request, pk=None):
        """Queue a webhook.test delivery to this endpoint."""
        delivery = services.send_test(request.user, self.get_object())
        return Response(DeliverySerializer(delivery).data, status=202)


class DeliveryViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The delivery log of the webhooks the user manages: status, attempts, response code, duration."""

    queryset = Delivery.objects.order_by("-id")
    serializer_class = DeliverySerializer
    filterset_class = DeliveryFilterSet

    def get_queryset(self):
        return managed(super().get_queryset(), self.request.user, "webhook__tenant")

    @extend_schema(request=None, responses={202: DeliverySerializer})
    @action(detail=True, methods=["post"])
    def replay(self, request, pk=None):
        """Send a finished delivery again (same message id and payload, a new entry in the log)."""
        again = services.replay(request.user, self.get_object())
        return Response(DeliverySerializer(again).data, status=202)
