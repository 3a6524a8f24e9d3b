"""What an introspection answer must say for Enclave to accept a provider token (identity.introspection.check).

The same checks against the real provider are in test_oidc.py; these cover answers it never gives."""

import pytest

from identity.introspection import TokenRefused, check

ISSUER, NOW = "https://sso.example.edu/realms/uni", 1_800_000_000
GOOD = {"active": True, "client_id": "enclave", "iss": ISSUER, "sub": "olga", "exp": NOW + 60, "token_type": "Bearer"}


@pytest.fixture(autouse=True)
def oidc(settings):
    settings.OIDC_RP_CLIENT_ID, settings.OIDC_OP_ISSUER, settings.OIDC_AUDIENCE = "enclave", ISSUER, ""


def test_a_live_bearer_token_issued_to_enclave_by_the_issuer_is_accepted():
    seen = check(GOOD, now=NOW)
    assert (seen.subject, seen.expires) == ("olga", NOW + 60)
    assert check(GOOD | {"aud": ["enclave", "account"]}, now=NOW).subject == "olga"
    no_client_id = {k: v for k, v in GOOD.items() if k != "client_id"}
    assert check(no_client_id | {"azp": "enclave"}, now=NOW).subject == "olga"


@pytest.mark.parametrize("changes", [
    {"active": False}, {"active": "true"}, {"client_id": "other-app"}, {"client_id": None},
    {"aud": "other-app"}, {"aud": ["other-app", "account"]}, {"iss": "https://evil.example"}, {"iss": None},
    {"token_type": "refresh_token"}, {"exp": NOW}, {"exp": "2099"}, {"exp": None}, {"sub": ""}, {"sub": None},
])  # fmt: skip
def test_any_other_answer_is_refused(changes):
    with pytest.raises(TokenRefused):
        check(GOOD | changes, now=NOW)


def test_a_configured_audience_is_accepted_besides_the_client_id(settings):
    settings.OIDC_AUDIENCE = "https://enclave.example.edu"
    assert check(GOOD | {"aud": "https://enclave.example.edu"}, now=NOW).subject == "olga"


def test_an_introspection_endpoint_without_the_issuer_is_a_configuration_error(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    from portal.oidc_settings import oidc_settings

    for key in ("AUTHORIZATION", "TOKEN", "USER", "JWKS", "INTROSPECTION"):
        monkeypatch.setenv(f"ENCLAVE_OIDC_{key}_URL", f"https://sso.example.edu/{key.lower()}")
    monkeypatch.delenv("ENCLAVE_OIDC_ISSUER", raising=False)
    with pytest.raises(ImproperlyConfigured, match="ENCLAVE_OIDC_ISSUER"):
        oidc_settings("enclave")
    monkeypatch.setenv("ENCLAVE_OIDC_ISSUER", ISSUER)
    assert oidc_settings("enclave")["OIDC_OP_ISSUER"] == ISSUER
