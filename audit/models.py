"""The audit event: one immutable row per change of intent or state."""

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.db import models
from django.db.models.functions import Upper

from audit.context import ActorKind


class AuditEvent(models.Model):
    """Who did what to which object, with before/after JSON; append-only in the database."""

    created = models.DateTimeField(auto_now_add=True, db_index=True)
    actor_kind = models.CharField(max_length=16, choices=ActorKind.choices)
    actor_label = models.CharField(max_length=150)
    # No database FK: events must outlive the users and objects they describe.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
    )
    # The tenant's id, not a foreign key: audit sits below tenants, and events outlive their tenant.
    tenant_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    action = models.CharField(max_length=64, db_index=True)
    object_type = models.CharField(max_length=64, db_index=True)
    object_id = models.CharField(max_length=64, db_index=True)
    object_repr = models.CharField(max_length=200)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    message = models.TextField(blank=True)
    # The server's own id for the request (never client-controlled) and, apart, what the client sent.
    request_id = models.CharField(max_length=64, db_index=True, blank=True)
    client_request_id = models.CharField(max_length=64, blank=True)
    source_ip = models.GenericIPAddressField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            models.Index(fields=["object_type", "object_id", "-created"]),
            # Keyset pages (newest first by id) of one tenant's or one actor's events.
            models.Index(fields=["tenant_id", "-id"], name="audit_tenant_recent"),
            models.Index(fields=["actor", "-id"], name="audit_actor_recent"),
            # The search box (icontains, i.e. UPPER(x) LIKE '%Y%') over a million events.
            *[
                GinIndex(OpClass(Upper(field), name="gin_trgm_ops"), name=f"audit_{field}_trgm")
                for field in ("actor_label", "action", "object_repr", "message")
            ],
        ]

    def __str__(self):
        return f"{self.created:%Y-%m-%d %H:%M:%S} {self.actor_label} {self.action} {self.object_repr}"


class ChainLink(models.Model):
    """An event's place on the hash chain, written at commit by a database trigger (audit/chain.py)."""

    seq = models.BigIntegerField(primary_key=True)
    event = models.OneToOneField(
        AuditEvent, on_delete=models.DO_NOTHING, db_constraint=False, related_name="chain_link"
    )
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["seq"]

    def __str__(self):
        return f"#{self.seq} event {self.event_id} {self.hash[:12]}"


class ChainCheck(models.Model):
    """The result of one full verification of the chain (audit_verify, the periodic task)."""

    checked_at = models.DateTimeField(auto_now_add=True)
    ok = models.BooleanField()
    links = models.BigIntegerField(help_text="Links verified")
    head_seq = models.BigIntegerField(null=True)
    head_hash = models.CharField(max_length=64, blank=True)
    first_bad_event = models.BigIntegerField(null=True)
    problem = models.TextField(blank=True)

    class Meta:
        ordering = ["-checked_at", "-id"]

    def __str__(self):
        return f"{self.checked_at:%Y-%m-%d %H:%M} {'ok' if self.ok else 'BROKEN'}"
