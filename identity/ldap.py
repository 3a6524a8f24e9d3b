"""Sign-in against the site's LDAP directory (django-auth-ldap), then the group mapping.

Settings come from the environment (portal.settings: ENCLAVE_LDAP_*); StartTLS with the CA checked
is the default. What goes wrong reaches the login form as one clear sentence (request.identity_notice).
"""

import contextvars
import logging

import ldap
from django.conf import settings
from django.dispatch import receiver
from django_auth_ldap.backend import LDAPBackend, ldap_error

from audit.context import acting_as, system_actor
from identity import mapping, services
from identity.choices import Source
from identity.models import DirectoryAccount
from users.services import revoke_all_tokens

log = logging.getLogger(__name__)
UNREACHABLE = ("The directory cannot be reached, or its certificate could not be verified, so no one can "
               "sign in with it right now. Try again in a few minutes; if it lasts, tell the site admins.")  # fmt: skip
NO_GROUP = "You are not a member of any research group on this site; ask your PI."
LOCAL_CLASH = ("An account of this name exists in Enclave itself and is not linked to the directory; "
               "ask a site admin to link it.")  # fmt: skip


def notify(request, message: str) -> None:
    """Tell the login form why a sign-in failed (the backend API has no channel for it)."""
    if request is not None and not getattr(request, "identity_notice", ""):
        request.identity_notice = message


class DirectoryLDAPBackend(LDAPBackend):
    """django-auth-ldap's backend, mapping the user's groups to tenants and roles at every sign-in."""

    def get_or_build_user(self, username, ldap_user):
        user, built = super().get_or_build_user(username, ldap_user)
        # Only an account the directory created is the directory's: a local one (a break-glass admin),
        # or one the OpenID provider created, is never taken over by an entry of the same name.
        if not built and not DirectoryAccount.objects.filter(user=user, source=Source.LDAP).exists():
            why = f"directory sign-in of {username!r} refused: an existing {services.linked_kind(user)} has that name"
            log.warning("%s", why)
            services.refuse_sign_in(user, Source.LDAP, why)
            notify(ldap_user._request, LOCAL_CLASH)
            raise ldap_user.AuthenticationFailed(why)
        return user, built

    def authenticate_ldap_user(self, ldap_user, password):
        user = super().authenticate_ldap_user(ldap_user, password)
        if user is None:
            return None
        result = sync_from_ldap(user, ldap_user)
        if not result.member_of_any:
            notify(ldap_user._request, NO_GROUP)
            return None
        return user


def sync_from_ldap(user, ldap_user) -> mapping.SyncResult:
    """Map the groups (and UID) django-auth-ldap found for this user."""
    values = ldap_user.attrs.get(getattr(settings, "LDAP_UID_ATTR", "uidNumber")) or []
    return mapping.sync_user(user, sorted(ldap_user.group_dns), source=Source.LDAP,
                             uid=values[0] if values else None)  # fmt: skip


def resync_all() -> dict:
    """Re-read every LDAP user's groups with the service account; a user gone from the directory loses all
    directory memberships and every Enclave API token (hand-granted memberships would keep them useful).

    django-auth-ldap answers None both for "not found" and for an LDAP error; an error stops the run
    (seen through its error signal), so an outage never strips anyone's memberships."""
    backend = DirectoryLDAPBackend()
    counts = {"users": 0, "changed": 0, "gone": 0, "tokens_revoked": 0, "stopped_by_error": False}
    token = _errors.set([])
    try:
        for account in DirectoryAccount.objects.filter(source=Source.LDAP).select_related("user").order_by("pk"):
            seen = len(_errors.get())
            user = backend.populate_user(account.user.username)
            if len(_errors.get()) > seen:
                log.error("directory re-sync stopped after %d users: %s", counts["users"], _errors.get()[-1])
                counts["stopped_by_error"] = True
                break
            counts["users"] += 1
            if user is None:
                result = mapping.sync_user(account.user, [], source=Source.LDAP)
                counts["gone"] += 1
                counts["tokens_revoked"] += _revoke_tokens(account.user)
            else:
                result = sync_from_ldap(user, user.ldap_user)
            counts["changed"] += result.changed_anything
    finally:
        _errors.reset(token)
    return counts


def _revoke_tokens(user) -> int:
    with acting_as(system_actor(f"directory ({Source.LDAP})")):
        return revoke_all_tokens(user, "no longer in the directory (periodic re-sync)")


_errors: contextvars.ContextVar[list | None] = contextvars.ContextVar("identity_ldap_errors", default=None)


@receiver(ldap_error, dispatch_uid="identity-ldap-error")
def _ldap_error(sender, context, user, request, exception, **kwargs):
    """django-auth-ldap swallows LDAP errors: counted for the re-sync, and an unreachable directory said so."""
    if (seen := _errors.get()) is not None:
        seen.append(exception)
    if isinstance(exception, ldap.SERVER_DOWN | ldap.CONNECT_ERROR | ldap.TIMEOUT | ldap.UNAVAILABLE):
        notify(request, UNREACHABLE)
