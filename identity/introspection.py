"""Whether a bearer token the OpenID provider issued is one for Enclave: RFC 7662 introspection.

The provider's userinfo endpoint answers for any access token it issued, to any application; only
introspection says which client a token was issued to, for whom, by which issuer and until when. A
token is accepted only when the provider says it is active, was issued to Enclave's client (and, if it
names audiences, to Enclave), by the configured issuer, is a bearer access token, and has not expired.
"""

import logging
import time
from dataclasses import dataclass

import requests
from django.conf import settings

log = logging.getLogger(__name__)


class TokenRefused(Exception):
    """The provider does not vouch for this token as one for Enclave."""


class ProviderUnavailable(Exception):
    """The provider could not be asked (down, misconfigured, or refusing Enclave's own credentials)."""


@dataclass(frozen=True)
class Introspected:
    """What the provider said of an accepted token."""

    subject: str
    expires: int  # seconds since the epoch


def introspect(token: str) -> Introspected:
    """Ask the provider about `token`; raise TokenRefused or ProviderUnavailable."""
    url = getattr(settings, "OIDC_OP_INTROSPECTION_ENDPOINT", "")
    if not url:
        raise TokenRefused("no introspection endpoint is configured, so provider tokens are not accepted")
    data = {"token": token, "token_type_hint": "access_token", "client_id": settings.OIDC_RP_CLIENT_ID,
            "client_secret": settings.OIDC_RP_CLIENT_SECRET}  # fmt: skip
    try:
        response = requests.post(url, data=data, headers={"Accept": "application/json"},
                                 timeout=settings.OIDC_TIMEOUT, verify=settings.OIDC_VERIFY_SSL)  # fmt: skip
    except requests.RequestException as exc:
        raise ProviderUnavailable(str(exc)) from exc
    if response.status_code == 400:  # a token it cannot introspect (a JWT it did not issue, say)
        raise TokenRefused(f"the provider refused to introspect it ({response.text[:200]})")
    if response.status_code != 200:
        log.error("OpenID introspection answered %s: check ENCLAVE_OIDC_CLIENT_SECRET", response.status_code)
        raise ProviderUnavailable(f"introspection answered {response.status_code}")
    try:
        body = response.json()
    except ValueError as exc:
        raise ProviderUnavailable("introspection answered no JSON") from exc
    return check(body if isinstance(body, dict) else {})


def check(body: dict, now: float | None = None) -> Introspected:
    """Accept an introspection answer only for a live bearer access token issued to Enclave."""
    client = settings.OIDC_RP_CLIENT_ID
    if body.get("active") is not True:
        raise TokenRefused("not active (expired, revoked, or never issued)")
    issued_to = body.get("client_id", body.get("azp"))
    if issued_to != client:
        raise TokenRefused(f"issued to client {issued_to!r}, not to {client!r}")
    audiences = body.get("aud") or []
    audiences = [audiences] if isinstance(audiences, str) else audiences
    if audiences and not {client, getattr(settings, "OIDC_AUDIENCE", "") or client} & set(audiences):
        raise TokenRefused(f"meant for {audiences!r}")
    if body.get("iss") != settings.OIDC_OP_ISSUER:
        raise TokenRefused(f"issued by {body.get('iss')!r}, not by {settings.OIDC_OP_ISSUER!r}")
    if str(body.get("token_type", "Bearer")).lower() != "bearer":
        raise TokenRefused(f"a {body.get('token_type')!r}, not an access token")
    expires, subject = body.get("exp"), body.get("sub")
    if not isinstance(expires, int) or expires <= (now or time.time()):
        raise TokenRefused("expired, or no expiry given")
    if not isinstance(subject, str) or not subject:
        raise TokenRefused("no subject given")
    return Introspected(subject, expires)
