"""Webhooks (an endpoint and the events it wants), their signing secrets, each delivery, and the outbox cursor."""

import uuid

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q

from core.crypto import EncryptedTextField
from webhooks.choices import SUBSCRIBABLE, DeliveryState

NAME = RegexValidator(r"\A[a-z0-9][a-z0-9-]{0,62}\Z", "1-63 lowercase letters, digits or '-', starting alphanumeric.")


def new_message_id() -> str:
    """A Standard Webhooks message id (the webhook-id header)."""
    return f"msg_{uuid.uuid4().hex}"


class Webhook(models.Model):
    """An endpoint of a tenant (its owners manage it) or of the site (tenant null: site admins)."""

    tenant = models.ForeignKey("tenants.Tenant", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="webhooks")  # fmt: skip
    name = models.CharField(max_length=63, validators=[NAME])
    # The whole URL is a credential (webhooks.secret_url): encrypted at rest, shown only as the two fields below.
    url = EncryptedTextField(help_text="Encrypted at rest; never shown again after it is set")
    url_redacted = models.CharField(max_length=300, blank=True, default="", help_text="scheme://host/…")
    url_fingerprint = models.CharField(max_length=16, blank=True, default="", help_text="Keyed digest of the URL")
    events = ArrayField(models.CharField(max_length=40, choices=[(t.value, t.label) for t in SUBSCRIBABLE]))
    # Optional filters on the event's data: {"states": [...], "clusters": [...], "tenants": [...]}.
    conditions = models.JSONField(default=dict, blank=True)
    enabled = models.BooleanField(default=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tenant_id", "name"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "name"], name="webhook_name_per_tenant"),
            models.UniqueConstraint(fields=["name"], condition=Q(tenant__isnull=True), name="webhook_name_site"),
        ]
        indexes = [models.Index(fields=["enabled", "tenant"], name="webhook_enabled_tenant")]

    def __str__(self):
        return f"{self.tenant.slug if self.tenant_id else 'site'}/{self.name}"


class WebhookSecret(models.Model):
    """One signing secret (whsec_…), encrypted; during a rotation the old one signs too until it expires."""

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="secrets")
    secret = EncryptedTextField(help_text="Encrypted at rest; shown once when created")
    hint = models.CharField(max_length=12, help_text="The secret's last characters, to tell them apart")
    created = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["webhook_id", "-created"]

    def __str__(self):
        return f"{self.webhook} secret …{self.hint}"


class Delivery(models.Model):
    """One message to one webhook: its payload, its attempts so far and how the last one went."""

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    tenant = models.ForeignKey("tenants.Tenant", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    # The audit event that raised it (no FK: the audit log is append-only and outlives everything).
    event_id = models.BigIntegerField(null=True, blank=True)
    event_type = models.CharField(max_length=40)
    message_id = models.CharField(max_length=40, default=new_message_id)  # webhook-id: kept by retries and replays
    payload = models.JSONField()
    state = models.CharField(max_length=16, choices=DeliveryState.choices, default=DeliveryState.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    response_code = models.PositiveIntegerField(null=True, blank=True)
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    claimed_until = models.DateTimeField(null=True, blank=True)
    replay_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="replays")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            # The outbox may read an event twice (a crash before its cursor moved): one delivery per hook and type.
            models.UniqueConstraint(
                fields=["webhook", "event_id", "event_type"],
                condition=Q(replay_of__isnull=True, event_id__isnull=False),
                name="delivery_once_per_event",
            ),  # fmt: skip
        ]
        indexes = [
            models.Index(fields=["webhook", "-id"], name="delivery_webhook_recent"),
            models.Index(
                fields=["state", "next_attempt_at"],
                name="delivery_due",
                condition=Q(state__in=["pending", "retrying", "sending"]),
            ),  # fmt: skip
        ]

    def __str__(self):
        return f"{self.event_type} → {self.webhook} ({self.state})"


class OutboxCursor(models.Model):
    """How far along the audit chain (ChainLink.seq, i.e. commit order) events were turned into deliveries."""

    name = models.CharField(max_length=32, primary_key=True)
    seq = models.BigIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.name} at {self.seq}"
