"""The access matrix again with single sign-on and the directory configured: the SSO backends, the
provider-token check on the API and the session-refresh middleware change no one's access."""

import pytest

from portal.oidc_settings import oidc_settings
from tests import test_access_matrix as matrix
from tests.access import ROLES

PROVIDER = "http://127.0.0.1:9"  # never reached: the matrix signs people in with the test client


@pytest.fixture
def sso_on(settings, monkeypatch):
    for key in ("AUTHORIZATION", "TOKEN", "USER", "JWKS", "LOGOUT"):
        monkeypatch.setenv(f"ENCLAVE_OIDC_{key}_URL", f"{PROVIDER}/{key.lower()}")
    for name, value in oidc_settings("enclave").items():
        setattr(settings, name, value)
    settings.AUTHENTICATION_BACKENDS = ["portal.auth.LoginLockoutBackend", "identity.oidc.DirectoryOIDCBackend",
                                        "identity.local.LocalBackend"]  # fmt: skip


objects = matrix.objects


@pytest.mark.parametrize("role", ROLES)
def test_each_role_gets_what_the_matrix_says_with_sso_on(role, world, objects, client, sso_on):
    matrix.test_each_role_gets_what_the_matrix_says(role, world, objects, client)
