"""API tokens: named, expiring, revocable, stored only as a SHA-256 hash."""

import hashlib
import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

TOKEN_PREFIX = "enc_"  # noqa: S105 - a visible prefix, not a secret


def hash_token(raw: str) -> str:
    """Return the stored form of a token (tokens are 256-bit random, so a fast hash suffices)."""
    return hashlib.sha256(raw.encode()).hexdigest()


def generate_token() -> str:
    """Return a new random token in its plaintext form (shown to the user exactly once)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


class APITokenQuerySet(models.QuerySet):
    def active(self):
        """Tokens that are neither revoked nor expired."""
        now = timezone.now()
        return self.filter(revoked_at__isnull=True).filter(
            models.Q(expires_at__isnull=True) | models.Q(expires_at__gt=now)
        )


class APIToken(models.Model):
    """A bearer token owned by one user."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tokens")
    name = models.CharField(max_length=64)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    hint = models.CharField(max_length=12, editable=False, help_text="First characters, to tell tokens apart")
    created = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    objects = APITokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]
        constraints = [models.UniqueConstraint(fields=["user", "name"], name="token_name_unique_per_user")]

    def __str__(self):
        return f"{self.name} ({self.hint}…)"

    @property
    def is_active(self) -> bool:
        """Whether the token can still authenticate."""
        return self.revoked_at is None and (self.expires_at is None or self.expires_at > timezone.now())


class PosixAccount(models.Model):
    """A user's site-wide POSIX UID: node agents map login sessions to tenants by it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="posix")
    uid = models.PositiveIntegerField(unique=True, validators=[MinValueValidator(1000), MaxValueValidator(2**31 - 1)])

    def __str__(self):
        return f"{self.user} (uid {self.uid})"
