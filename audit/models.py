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
    # No database FK: events must outlive the users, tenants and objects they describe.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
    )
    tenant = models.ForeignKey(
        "tenants.Tenant",
        null=True,
        blank=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="+",
    )
    action = models.CharField(max_length=64, db_index=True)
    object_type = models.CharField(max_length=64, db_index=True)
    object_id = models.CharField(max_length=64, db_index=True)
    object_repr = models.CharField(max_length=200)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    message = models.TextField(blank=True)
    request_id = models.CharField(max_length=64, db_index=True, blank=True)
    source_ip = models.GenericIPAddressField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            models.Index(fields=["object_type", "object_id", "-created"]),
            # Keyset pages (newest first by id) of one tenant's or one actor's events.
            models.Index(fields=["tenant", "-id"], name="audit_tenant_recent"),
            models.Index(fields=["actor", "-id"], name="audit_actor_recent"),
            # The search box (icontains, i.e. UPPER(x) LIKE '%Y%') over a million events.
            *[GinIndex(OpClass(Upper(field), name="gin_trgm_ops"), name=f"audit_{field}_trgm")
              for field in ("actor_label", "action", "object_repr", "message")],
        ]

    def __str__(self):
        return f"{self.created:%Y-%m-%d %H:%M:%S} {self.actor_label} {self.action} {self.object_repr}"
