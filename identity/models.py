"""Directory group rules (site admins) and what the directory last said of each user."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from core.crypto import EncryptedTextField
from identity.choices import RuleAction, Source
from tenants.models import dns_label


class GroupRule(models.Model):
    """`group` (a canonical DN or a plain name: mapping.group_key) grants `action` (a tenant role or site admin).

    The tenant is named, not referenced: with create_tenant it need not exist until the group first
    signs someone in; without it, a rule whose tenant is gone grants nothing."""

    group = models.CharField(max_length=255)
    action = models.CharField(max_length=16, choices=RuleAction.choices)
    tenant_slug = models.CharField(max_length=63, blank=True, validators=[dns_label])
    create_tenant = models.BooleanField(default=False)
    description = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["group", "action"]
        constraints = [
            models.UniqueConstraint(fields=["group", "action", "tenant_slug"], name="group_rule_unique"),
            models.CheckConstraint(
                name="group_rule_target",
                condition=Q(action=RuleAction.SITE_ADMIN, create_tenant=False, tenant_slug="")
                | (~Q(action=RuleAction.SITE_ADMIN) & ~Q(tenant_slug="")),
            ),
        ]

    def __str__(self):
        target = "site admin" if self.action == RuleAction.SITE_ADMIN else f"{self.action} of {self.tenant_slug}"
        return f"{self.group} → {target}"


class DirectoryAccount(models.Model):
    """A user who signed in through the directory: their groups when last synchronised."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="directory")
    source = models.CharField(max_length=8, choices=Source.choices)
    groups = models.JSONField(default=list)
    staff_from_directory = models.BooleanField(default=False)  # is_staff came from a site_admin rule
    synced = models.DateTimeField(null=True)
    # OIDC only: the provider's refresh token (offline access), so the periodic re-sync can ask the
    # provider for the user's groups while they are away. Encrypted at rest.
    refresh_token = EncryptedTextField(blank=True, default="")
    # OIDC only: the provider's `sub` for this user. Later sign-ins are matched on it, so a provider
    # account that merely claims the same username never signs in as this user.
    subject = models.CharField(max_length=255, blank=True, db_index=True)

    def __str__(self):
        return f"{self.user} ({self.source})"
