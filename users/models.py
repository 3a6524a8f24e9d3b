"""API tokens: named, scoped, expiring, revocable, stored only as a SHA-256 hash."""

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

TOKEN_PREFIX = "enc_"  # noqa: S105 - a visible prefix, not a secret


def hash_token(raw: str) -> str:
    """Return the stored form of a token (tokens are 256-bit random, so a fast hash suffices)."""
    return hashlib.sha256(raw.encode()).hexdigest()


def credential_stamp(user) -> str:
    """A fingerprint of the user's password hash: a token dies when its user's password changes."""
    return hashlib.sha256(f"enclave-token-stamp:{user.password}".encode()).hexdigest()


def generate_token() -> str:
    """Return a new random token in its plaintext form (shown to the user exactly once)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


class TokenScope(models.TextChoices):
    """What a token may do: read (safe methods only) or write (everything its user may)."""

    READ = "read", "Read only"
    WRITE = "write", "Read and write"


SCOPE_RANK = {TokenScope.READ: 0, TokenScope.WRITE: 1}


def max_lifetime() -> timedelta:
    """The site's longest token lifetime (ENCLAVE_TOKEN_MAX_DAYS)."""
    return timedelta(days=settings.TOKEN_MAX_DAYS)


class APITokenQuerySet(models.QuerySet):
    def active(self):
        """Tokens that are neither revoked nor expired (nor older than the site's maximum lifetime)."""
        now = timezone.now()
        return self.filter(revoked_at__isnull=True, created__gt=now - max_lifetime()).filter(
            models.Q(expires_at__isnull=True) | models.Q(expires_at__gt=now)
        )


class APIToken(models.Model):
    """A bearer token owned by one user."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tokens")
    name = models.CharField(max_length=64)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    hint = models.CharField(max_length=12, editable=False, help_text="First characters, to tell tokens apart")
    scope = models.CharField(max_length=8, choices=TokenScope.choices, default=TokenScope.READ)
    # The user's credential_stamp() at creation: a password change invalidates every older token.
    stamp = models.CharField(max_length=64, editable=False, blank=True)
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
    def ends_at(self):
        """When the token stops working: its expiry, capped by the site's maximum lifetime."""
        cap = self.created + max_lifetime()
        return cap if self.expires_at is None else min(self.expires_at, cap)

    @property
    def is_active(self) -> bool:
        """Whether the token can still authenticate."""
        return self.revoked_at is None and self.ends_at > timezone.now() and self.stamp == credential_stamp(self.user)

    @property
    def can_write(self) -> bool:
        return self.scope == TokenScope.WRITE


class PosixAccount(models.Model):
    """A user's site-wide POSIX UID: node agents map login sessions to tenants by it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="posix")
    uid = models.PositiveIntegerField(unique=True, validators=[MinValueValidator(1000), MaxValueValidator(2**31 - 1)])

    def __str__(self):
        return f"{self.user} (uid {self.uid})"
