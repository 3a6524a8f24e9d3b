"""mozilla-django-oidc settings from ENCLAVE_OIDC_* (imported by portal.settings only when a client id is set).

The provider's endpoints are given, not discovered: a request never waits on a discovery fetch, and
a provider that is down never stops the portal from starting. TLS is verified (OIDC_VERIFY_SSL);
plain http is accepted only for a provider on the loopback interface (the test provider).
"""

import urllib.parse

from django.core.exceptions import ImproperlyConfigured

from core.env import env_int, env_str

ENDPOINTS = {"AUTHORIZATION": "authorization", "TOKEN": "token", "USER": "userinfo", "JWKS": "jwks",
             "LOGOUT": "end-session", "INTROSPECTION": "introspection"}  # fmt: skip
OPTIONAL = ("LOGOUT", "INTROSPECTION")  # without introspection the API accepts no provider token


def _checked(url: str, name: str) -> str:
    parts = urllib.parse.urlsplit(url)
    loopback = parts.hostname in ("127.0.0.1", "::1", "localhost")
    if parts.scheme != "https" and not (parts.scheme == "http" and loopback):
        raise ImproperlyConfigured(f"ENCLAVE_OIDC_{name}_URL must be https:// (http only on the loopback)")
    return url


def oidc_settings(client_id: str) -> dict:
    """The OIDC_* settings for this provider."""
    values = {f"OIDC_OP_{key}_ENDPOINT": env_str(f"ENCLAVE_OIDC_{key}_URL") for key in ENDPOINTS}
    missing = [
        f"ENCLAVE_OIDC_{key}_URL" for key in ENDPOINTS if key not in OPTIONAL and not values[f"OIDC_OP_{key}_ENDPOINT"]
    ]
    if missing:
        raise ImproperlyConfigured(f"ENCLAVE_OIDC_CLIENT_ID is set but not {', '.join(missing)}")
    values = {key: _checked(url, key.split("_")[2]) if url else url for key, url in values.items()}
    issuer = env_str("ENCLAVE_OIDC_ISSUER")
    if values["OIDC_OP_INTROSPECTION_ENDPOINT"] and not issuer:
        raise ImproperlyConfigured("ENCLAVE_OIDC_INTROSPECTION_URL is set but not ENCLAVE_OIDC_ISSUER")
    return values | {
        "OIDC_OP_ISSUER": issuer,  # compared, never fetched: an introspected token must name it
        "OIDC_AUDIENCE": env_str("ENCLAVE_OIDC_AUDIENCE"),  # besides the client id, where tokens name audiences
        "OIDC_ENABLED": True,
        "OIDC_PROVIDER_NAME": env_str("ENCLAVE_OIDC_PROVIDER_NAME", "your university account"),
        "OIDC_RP_CLIENT_ID": client_id,
        "OIDC_RP_CLIENT_SECRET": env_str("ENCLAVE_OIDC_CLIENT_SECRET"),
        "OIDC_RP_SIGN_ALGO": env_str("ENCLAVE_OIDC_SIGN_ALGO", "RS256"),
        "OIDC_RP_SCOPES": env_str("ENCLAVE_OIDC_SCOPES", "openid email profile groups"),
        "OIDC_USE_PKCE": True,
        "OIDC_STORE_ID_TOKEN": True,  # for the provider's logout (id_token_hint)
        "OIDC_VERIFY_SSL": True,
        "OIDC_TIMEOUT": 10,
        "OIDC_RENEW_ID_TOKEN_EXPIRY_SECONDS": env_int("ENCLAVE_OIDC_RENEW_SECONDS", 900),
        "OIDC_USERNAME_CLAIM": env_str("ENCLAVE_OIDC_USERNAME_CLAIM", "preferred_username"),
        "OIDC_GROUPS_CLAIM": env_str("ENCLAVE_OIDC_GROUPS_CLAIM", "groups"),
        "OIDC_UID_CLAIM": env_str("ENCLAVE_OIDC_UID_CLAIM", "uid_number"),
        "OIDC_CALLBACK_CLASS": "identity.oidc.CallbackView",
        "LOGIN_REDIRECT_URL_FAILURE": "/login/",
    }
