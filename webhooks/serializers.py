"""API serializers of the webhooks app; writes go through webhooks.services."""

from rest_framework import serializers

from tenants.access import is_site_admin, tenant_ids
from tenants.choices import Role
from tenants.models import Tenant
from webhooks.choices import SUBSCRIBABLE
from webhooks.models import Delivery, Webhook, WebhookSecret


class WebhookSecretSerializer(serializers.ModelSerializer):
    """A signing secret as listed: its last characters and when it stops signing (never the secret)."""

    class Meta:
        model = WebhookSecret
        fields = ["hint", "created", "expires_at"]


class WebhookSerializer(serializers.ModelSerializer):
    """A webhook: where, which events and conditions; `secret` is in the answer to create only."""

    events = serializers.ListField(child=serializers.ChoiceField(choices=[(t.value, t.label) for t in SUBSCRIBABLE]),
                                   min_length=1, max_length=len(SUBSCRIBABLE))  # fmt: skip
    conditions = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField(max_length=100), max_length=50), required=False,
        help_text="Optional: {states: [...], objects: [...], tenants: [...]}",
    )  # fmt: skip
    secrets = WebhookSecretSerializer(many=True, read_only=True)
    url = serializers.CharField(max_length=2000, help_text="https://… (loopback and private addresses refused)")

    class Meta:
        model = Webhook
        fields = ["id", "tenant", "name", "url", "events", "conditions", "enabled", "secrets", "created", "updated"]
        read_only_fields = ["created", "updated"]
        extra_kwargs = {
            "tenant": {
                "required": False,
                "allow_null": True,
                "help_text": "The tenant (its owners manage it); null: a site webhook (admins)",
            }
        }

    def get_fields(self):
        """The tenant field knows only the tenants the user owns (another tenant is as unknown as a missing one)."""
        fields = super().get_fields()
        request = self.context.get("request")
        if request is not None and not is_site_admin(request.user):
            fields["tenant"].queryset = Tenant.objects.filter(pk__in=tenant_ids(request.user, Role.OWNER))
        return fields

    def validate_tenant(self, tenant):
        if self.instance is not None and getattr(tenant, "pk", None) != self.instance.tenant_id:
            raise serializers.ValidationError("A webhook's tenant cannot change: create a new one.")
        return tenant


class WebhookCreatedSerializer(WebhookSerializer):
    """The answer to create and to rotate: the plaintext secret, shown this once."""

    secret = serializers.CharField(read_only=True, help_text="whsec_…: store it now; it is never shown again")

    class Meta(WebhookSerializer.Meta):
        fields = [*WebhookSerializer.Meta.fields, "secret"]


class DeliverySerializer(serializers.ModelSerializer):
    """One delivery in the log: what was sent, how often, and how the receiver answered."""

    class Meta:
        model = Delivery
        fields = ["id", "webhook", "tenant", "event_id", "event_type", "message_id", "payload", "state", "attempts",
                  "response_code", "duration_ms", "last_error", "next_attempt_at", "replay_of", "created",
                  "updated"]  # fmt: skip
        read_only_fields = fields
