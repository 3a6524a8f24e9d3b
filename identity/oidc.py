"""Sign-in with the institution's OpenID provider (mozilla-django-oidc: authorization code + PKCE),
its access tokens on the API, and the same group mapping as LDAP.

Settings come from ENCLAVE_OIDC_* (portal/oidc_settings.py). What goes wrong reaches the login page as
one sentence (a message), never a 500.
"""

import hashlib
import logging
import time
import urllib.parse

import requests
from django.conf import settings
from django.contrib import auth, messages
from django.core.cache import cache
from django.core.exceptions import SuspiciousOperation
from django.http import Http404
from django.shortcuts import redirect
from django.views.decorators.http import require_POST
from mozilla_django_oidc.auth import OIDCAuthenticationBackend
from mozilla_django_oidc.contrib.drf import OIDCAuthentication
from mozilla_django_oidc.middleware import SessionRefresh
from mozilla_django_oidc.views import OIDCAuthenticationCallbackView, OIDCAuthenticationRequestView
from rest_framework import exceptions

from audit.context import acting_as, system_actor
from identity import introspection, mapping, services
from identity.choices import Source
from identity.ldap import NO_GROUP, notify
from identity.models import DirectoryAccount
from users.models import TOKEN_PREFIX
from users.services import revoke_all_tokens
from users.throttling import BearerFailures

log = logging.getLogger(__name__)
PROVIDER_DOWN = ("The university sign-in service cannot be reached right now. Try again in a few minutes; "
                 "if it lasts, tell the site admins.")  # fmt: skip
FAILED = "Signing in with the university account did not work; try again, or tell the site admins."
USERNAME_TAKEN = ("An Enclave account of the same username exists and is not linked to your university sign-in, "
                  "so it was not used; ask a site admin to link them.")  # fmt: skip
UNCHECKABLE = "The sign-in service cannot check access tokens right now."
TOKEN_CACHE_SECONDS = 60  # an access token's user, so the API asks the provider once a minute at most


def _missing_claim(name: str) -> str:
    return f"The university sign-in did not say your {name}, so Enclave cannot tell who you are; tell the site admins."


class DirectoryOIDCBackend(OIDCAuthenticationBackend):
    """mozilla-django-oidc's backend: users by the username claim, groups mapped at every sign-in."""

    def authenticate(self, request, **kwargs):
        try:
            return super().authenticate(request, **kwargs)
        except requests.RequestException as exc:
            log.warning("OpenID provider unreachable during sign-in: %s", exc)
            notify(request, PROVIDER_DOWN)
            return None

    def verify_claims(self, claims):
        wanted = (
            ("sub", "subject"),
            (settings.OIDC_USERNAME_CLAIM, "username"),
            (settings.OIDC_GROUPS_CLAIM, "groups"),
        )
        for name, label in wanted:
            if name not in claims:
                log.warning("OpenID claims lack %s (%s)", name, sorted(claims))
                notify(getattr(self, "request", None), _missing_claim(label))
                return False
        return True

    def get_token(self, payload):
        token_info = super().get_token(payload)
        self.refresh_token = token_info.get("refresh_token", "")  # kept for the periodic re-sync
        return token_info

    def filter_users_by_claims(self, claims):
        """Only the user linked to this provider subject: a username alone never links an account."""
        return self.UserModel.objects.filter(directory__source=Source.OIDC, directory__subject=claims["sub"])

    def create_user(self, claims):
        username = claims[settings.OIDC_USERNAME_CLAIM]
        taken = self.UserModel.objects.filter(username=username).first()
        if taken is not None:
            return self._refuse_taken(taken, claims)
        user = self.UserModel(username=username, email=claims.get("email", ""))
        user.set_unusable_password()
        user.save()
        return self._synced(user, claims)

    def update_user(self, user, claims):
        return self._synced(user, claims)

    def _refuse_taken(self, user, claims) -> None:
        """A provider account whose username an unlinked Enclave account has: refused, and audited."""
        why = (f"OpenID sign-in of provider subject {claims['sub']!r} refused: the username {user.username!r} "
               f"belongs to an {services.linked_kind(user)}, not to that subject")  # fmt: skip
        log.warning("%s", why)
        services.refuse_sign_in(user, Source.OIDC, why)
        notify(getattr(self, "request", None), USERNAME_TAKEN)
        return None

    def _synced(self, user, claims):
        groups = claims.get(settings.OIDC_GROUPS_CLAIM) or []
        result = mapping.sync_user(user, groups if isinstance(groups, list) else [groups], source=Source.OIDC,
                                   uid=claims.get(settings.OIDC_UID_CLAIM))  # fmt: skip
        linked = {"subject": claims["sub"]} if claims.get("sub") else {}
        if getattr(self, "refresh_token", ""):
            linked["refresh_token"] = self.refresh_token  # encrypted at rest by the field
        if linked:
            DirectoryAccount.objects.filter(user=user).update(**linked)
        if not result.member_of_any:
            notify(getattr(self, "request", None), NO_GROUP)
            return None
        return user

    def resync(self, account: DirectoryAccount) -> mapping.SyncResult | None:
        """Ask the provider again for an away user's groups (their refresh token); None: it cannot say.

        A refresh token the provider refuses (invalid_grant: the user disabled, the grant revoked or
        expired) means the provider no longer vouches for the user: their directory memberships and
        Enclave API tokens go. Any other error (Enclave's own client refused, say) stops the run."""
        if not account.refresh_token:
            return None
        response = requests.post(self.OIDC_OP_TOKEN_ENDPOINT, timeout=self.get_settings("OIDC_TIMEOUT", 10), data={
            "grant_type": "refresh_token", "refresh_token": account.refresh_token,
            "client_id": self.OIDC_RP_CLIENT_ID, "client_secret": self.OIDC_RP_CLIENT_SECRET})  # fmt: skip
        if response.status_code == 400 and _oauth_error(response) == "invalid_grant":
            DirectoryAccount.objects.filter(pk=account.pk).update(refresh_token="")
            result = mapping.sync_user(account.user, [], source=Source.OIDC)
            with acting_as(system_actor(f"directory ({Source.OIDC})")):
                revoke_all_tokens(account.user, "the provider no longer vouches for the user (periodic re-sync)")
            return result
        response.raise_for_status()
        tokens = response.json()
        self.refresh_token = tokens.get("refresh_token") or account.refresh_token
        claims = self.get_userinfo(tokens["access_token"], None, None)
        if not self.verify_claims(claims):
            return None
        groups = claims.get(settings.OIDC_GROUPS_CLAIM) or []
        result = mapping.sync_user(account.user, groups, source=Source.OIDC, uid=claims.get(settings.OIDC_UID_CLAIM))
        DirectoryAccount.objects.filter(pk=account.pk).update(refresh_token=self.refresh_token)
        return result


def _oauth_error(response) -> str:
    try:
        body = response.json()
    except ValueError:
        return ""
    return body.get("error", "") if isinstance(body, dict) else ""


def resync_all() -> dict:
    """Re-read every OIDC user's groups through their refresh token; a provider error stops the run."""
    backend, counts = DirectoryOIDCBackend(), {"users": 0, "changed": 0, "gone": 0, "stopped_by_error": False}
    for account in DirectoryAccount.objects.filter(source=Source.OIDC).exclude(refresh_token="").select_related("user"):
        try:
            result = backend.resync(account)
        except requests.RequestException as exc:
            log.error("OpenID re-sync stopped after %d users: %s", counts["users"], exc)
            counts["stopped_by_error"] = True
            break
        counts["users"] += 1
        if result is not None:
            counts["changed"] += result.changed_anything
            counts["gone"] += not result.member_of_any
    return counts


class CallbackView(OIDCAuthenticationCallbackView):
    """The provider's redirect back: a failure goes to the login page with the reason."""

    def login_failure(self):
        message = getattr(self.request, "identity_notice", "") or FAILED
        messages.error(self.request, message)
        return super().login_failure()


def enabled() -> bool:
    return getattr(settings, "OIDC_ENABLED", False)


def authenticate_view(request):
    """Start a sign-in at the provider (authorization code with PKCE); 404 while OIDC is off."""
    if not enabled():
        raise Http404("Single sign-on is not configured on this site.")
    return OIDCAuthenticationRequestView.as_view()(request)


def callback_view(request):
    """The provider's redirect back; 404 while OIDC is off."""
    if not enabled():
        raise Http404("Single sign-on is not configured on this site.")
    return CallbackView.as_view()(request)


class SessionRefreshWhenEnabled:
    """mozilla-django-oidc's SessionRefresh for sessions that signed in with the provider: when the ID
    token is older than OIDC_RENEW_ID_TOKEN_EXPIRY_SECONDS the browser goes back to the provider
    silently (prompt=none), so groups are mapped again and a user the provider dropped is signed out."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if enabled() and "oidc_id_token_expiration" in request.session:
            response = SessionRefresh(self.get_response).process_request(request)
            if response is not None:
                return response
        return self.get_response(request)


@require_POST
def logout(request):
    """End the Enclave session and, with a provider session, the provider's too (RP-initiated logout)."""
    id_token = request.session.get("oidc_id_token")
    auth.logout(request)
    end_session = getattr(settings, "OIDC_OP_LOGOUT_ENDPOINT", "")
    if not (id_token and end_session):
        return redirect("login")
    query = urllib.parse.urlencode({"id_token_hint": id_token, "client_id": settings.OIDC_RP_CLIENT_ID,
                                    "post_logout_redirect_uri": request.build_absolute_uri("/login/")})  # fmt: skip
    return redirect(f"{end_session}?{query}")


class ProviderTokenAuthentication(OIDCAuthentication):
    """The API also takes the provider's access tokens (Bearer) issued to Enclave's client: the provider's
    introspection endpoint says whose, for which client, until when (identity.introspection); userinfo
    gives the claims. Remembered for a minute (never past the token's expiry) by the token's hash; the
    groups are mapped as at a sign-in. Such a token may not create Enclave tokens (users.services)."""

    def __init__(self, backend=None):
        self._backend = backend  # built on first use: without OIDC settings the backend cannot be built

    @property
    def backend(self) -> DirectoryOIDCBackend:
        if self._backend is None:
            self._backend = DirectoryOIDCBackend()
        return self._backend

    def authenticate(self, request):
        token = self.get_access_token(request) if enabled() else None
        if not token or token.startswith(TOKEN_PREFIX):
            return None  # Enclave's own tokens: users.authentication
        failures = BearerFailures(request)
        failures.check()
        key = "oidc-token:" + hashlib.sha256(token.encode()).hexdigest()
        user, expires = self._cached(key), None
        if user is None:
            user, expires = self._ask_provider(token)
        if user is None or not user.is_active:
            failures.failed()
            raise exceptions.AuthenticationFailed("This access token does not belong to a member of this site.")
        if expires is not None:
            cache.set(key, user.pk, max(1, min(TOKEN_CACHE_SECONDS, int(expires - time.time()))))
        return user, token

    def _cached(self, key: str):
        user_id = cache.get(key)
        return self.backend.UserModel.objects.filter(pk=user_id, is_active=True).first() if user_id else None

    def _ask_provider(self, token: str):
        """(user, expiry) for a token the provider issued to Enclave, or (None, None)."""
        try:
            seen = introspection.introspect(token)
            user = self.backend.get_or_create_user(token, None, None)
        except introspection.TokenRefused as exc:
            log.info("provider token refused: %s", exc)
            return None, None
        except requests.HTTPError as exc:
            if exc.response is not None and exc.response.status_code in (400, 401, 403):
                return None, None  # the provider does not know this token (forged, expired, revoked)
            raise exceptions.AuthenticationFailed(UNCHECKABLE) from None
        except (requests.RequestException, introspection.ProviderUnavailable) as exc:
            log.warning("provider token not checked: %s", exc)
            raise exceptions.AuthenticationFailed(UNCHECKABLE) from None
        except SuspiciousOperation:  # claims missing
            return None, None
        linked = user is not None and DirectoryAccount.objects.filter(user=user, subject=seen.subject).exists()
        return (user, seen.expires) if linked else (None, None)
