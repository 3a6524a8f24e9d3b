"""API serializers of the webhooks app; writes go through webhooks.services."""

from django.conf import settings
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


# The grammars the schema states (ECMA-compatible patterns); webhooks.services checks the rest (SSRF, events).
NAME_PATTERN = r"^[a-z0-9][a-z0-9-]{0,62}$"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_URL_TAIL = (rf"{_LABEL}(?:\.{_LABEL})*(?::[1-9][0-9]{{0,4}})?(?:/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*)?"
             r"(?:\?[A-Za-z0-9._~!$&'()*+,;=:@%/?-]*)?$")  # fmt: skip
CONDITION_PATTERN = r"^[A-Za-z0-9_./:-]{1,100}$"


def single_line(value: str) -> None:
    """The schema's `^…$` patterns let a trailing newline through in Python's `re`: refuse every control
    character (the services check again with whole-string grammars)."""
    if any(ord(c) < 32 or c in "\x7f\x85\u2028\u2029" for c in value):
        raise serializers.ValidationError("No line breaks or control characters.")


def url_pattern() -> str:
    """https:// and a host name (http:// too where the site allows plain http)."""
    return ("^https?://" if settings.WEBHOOK_ALLOW_HTTP else "^https://") + _URL_TAIL


def _names(help_text: str):
    value = serializers.RegexField(CONDITION_PATTERN, max_length=100, validators=[single_line])
    return serializers.ListField(child=value, min_length=1, max_length=50, required=False, help_text=help_text)


class WebhookConditionsSerializer(serializers.Serializer):
    """Optional filters on an event: every key given must match."""

    states = _names("Only events whose object moved to one of these states")
    objects = _names("Only events about these objects (as the audit log names them, e.g. astro/mpi-1)")
    tenants = _names("Site webhooks only: only these tenants' events (slugs)")

    def to_internal_value(self, data):
        unknown = sorted(set(data) - set(self.fields)) if isinstance(data, dict) else []
        if unknown:
            raise serializers.ValidationError(f"Unknown condition {', '.join(unknown)}: use {', '.join(self.fields)}.")
        return dict(super().to_internal_value(data))


class WebhookSerializer(serializers.ModelSerializer):
    """A webhook: where, which events and conditions; `secret` is in the answer to create only."""

    name = serializers.RegexField(NAME_PATTERN, max_length=63, validators=[single_line],
                                  help_text="Lowercase letters, digits and '-'")  # fmt: skip
    events = serializers.ListField(child=serializers.ChoiceField(choices=[(t.value, t.label) for t in SUBSCRIBABLE]),
                                   min_length=1, max_length=len(SUBSCRIBABLE))  # fmt: skip
    conditions = WebhookConditionsSerializer(required=False)
    secrets = WebhookSecretSerializer(many=True, read_only=True)
    url = serializers.CharField(max_length=2000, write_only=True)
    url_redacted = serializers.CharField(read_only=True, help_text=(
        "The URL as anyone sees it once set: scheme://host/… (its path and query may hold a secret)"))  # fmt: skip
    url_fingerprint = serializers.CharField(read_only=True, help_text=(
        "A short keyed digest of the whole URL: the same URL, the same fingerprint"))  # fmt: skip

    class Meta:
        model = Webhook
        fields = ["id", "tenant", "name", "url", "url_redacted", "url_fingerprint", "events", "conditions", "enabled",
                  "secrets", "created", "updated"]  # fmt: skip
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
        fields["url"] = serializers.RegexField(url_pattern(), max_length=2000, validators=[single_line], help_text=(
            "The endpoint; loopback, private and link-local addresses are refused. Write-only: it is a credential "
            "(stored encrypted, shown as url_redacted and url_fingerprint); leave it out of an update to keep it"),
            write_only=True, required=self.instance is None)  # fmt: skip
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
