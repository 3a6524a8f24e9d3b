"""DRF authentication with `Authorization: Bearer <token>`: scoped, expiring, throttled on failure."""

from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from rest_framework import authentication, exceptions, permissions

from users.models import TOKEN_PREFIX, APIToken, credential_stamp, hash_token
from users.throttling import BearerFailures

# Refresh last_used_at at most this often, so reads stay read-only on the hot path.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """Authenticate API clients by a hashed, expiring, revocable token; a read token cannot write."""

    keyword = "Bearer"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        failures = BearerFailures(request)
        failures.check()
        if len(header) != 2:
            failures.failed()
            raise exceptions.AuthenticationFailed("Authorization header must be 'Bearer <token>'.")
        raw = header[1].decode(errors="replace")
        if getattr(settings, "OIDC_ENABLED", False) and not raw.startswith(TOKEN_PREFIX):
            return None  # the provider's access token: identity.oidc.ProviderTokenAuthentication checks it
        token = APIToken.objects.active().select_related("user").filter(token_hash=hash_token(raw)).first()
        if token is None or not token.user.is_active or token.stamp != credential_stamp(token.user):
            failures.failed()
            raise exceptions.AuthenticationFailed("Invalid, expired or revoked token.")
        if not token.can_write and request.method not in permissions.SAFE_METHODS:
            raise exceptions.PermissionDenied("This token is read-only; create a write token to change things.")
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
            APIToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token

    def authenticate_header(self, request):
        return self.keyword
