"""Creating and revoking API tokens, audited."""

from django.db import transaction
from django.utils import timezone

from audit.services import record, snapshot
from users.models import APIToken, generate_token, hash_token


def create_token(user, name: str, expires_at=None) -> tuple[APIToken, str]:
    """Create a token for `user`; return it with its plaintext, which is never stored."""
    raw = generate_token()
    with transaction.atomic():
        token = APIToken.objects.create(
            user=user, name=name, token_hash=hash_token(raw), hint=raw[:8], expires_at=expires_at
        )
        record("token.create", token, after=snapshot(token))
    return token, raw


def revoke_token(token: APIToken) -> APIToken:
    """Revoke a token (idempotent)."""
    with transaction.atomic():
        before = snapshot(token)
        updated = APIToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        token.refresh_from_db()
        if updated:
            record("token.revoke", token, before=before, after=snapshot(token))
    return token
