"""Creating and revoking API tokens, audited; a token never mints one broader or longer-lived than itself."""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from audit.services import record, snapshot
from core.errors import Forbidden, InvalidRequest
from users.models import SCOPE_RANK, APIToken, TokenScope, credential_stamp, generate_token, hash_token, max_lifetime


def _expiry(requested, via: APIToken | None):
    """The new token's expiry: the site default when none is asked, never beyond the maximum or `via`."""
    now = timezone.now()
    ceiling = now + max_lifetime()
    if via is not None:
        ceiling = min(ceiling, via.ends_at)
    if requested is None:
        return min(now + timedelta(days=settings.TOKEN_DEFAULT_DAYS), ceiling)
    if requested <= now:
        raise InvalidRequest("The expiry must be in the future.", "expires_at")
    if via is not None and requested > via.ends_at:
        raise InvalidRequest("A token cannot create a token that outlives it.", "expires_at")
    if requested > ceiling:
        raise InvalidRequest(f"Tokens live at most {settings.TOKEN_MAX_DAYS} days on this site.", "expires_at")
    return requested


def create_token(user, name: str, expires_at=None, scope=TokenScope.READ, via: APIToken | None = None,
                 via_provider: bool = False):  # fmt: skip
    """Create a token for `user`; return it with its plaintext, which is never stored.

    `via` is the token the request authenticated with, if any: the new token is no broader than it.
    `via_provider`: the request came with the OpenID provider's access token, which mints nothing (a
    token stolen from, or leaked by, another path to the provider must not become a long-lived one).
    """
    if via_provider:
        raise Forbidden("The sign-in provider's access tokens cannot create Enclave tokens; sign in to the "
                        "portal, or use an Enclave token, to create one.")  # fmt: skip
    if via is not None and SCOPE_RANK[scope] > SCOPE_RANK[via.scope]:
        raise Forbidden("A token cannot create a token with a broader scope than its own.")
    expires_at = _expiry(expires_at, via)
    raw = generate_token()
    with transaction.atomic():
        token = APIToken.objects.create(
            user=user, name=name, token_hash=hash_token(raw), hint=raw[:8], expires_at=expires_at, scope=scope,
            stamp=credential_stamp(user),
        )  # fmt: skip
        record("token.create", token, after=snapshot(token))
    return token, raw


def revoke_token(token: APIToken) -> APIToken:
    """Revoke a token (idempotent)."""
    with transaction.atomic():
        before = snapshot(token)
        updated = APIToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
        token.refresh_from_db()
        if updated:
            record("token.revoke", token, before=before, after=snapshot(token))
    return token


def revoke_all_tokens(user, reason: str) -> int:
    """Revoke every live token of `user` (password changed, account deactivated); audited."""
    with transaction.atomic():
        live = list(APIToken.objects.select_for_update().filter(user=user, revoked_at__isnull=True))
        APIToken.objects.filter(pk__in=[t.pk for t in live]).update(revoked_at=timezone.now())
        for token in live:
            record("token.revoke", token, before=snapshot(token), message=reason)
    return len(live)
