"""A real slapd per test session, and Enclave's settings pointed at it."""

import pytest

from identity.models import GroupRule
from portal.ldap_settings import ldap_settings
from tenants import services
from tests.identity import slapd as directory_server


@pytest.fixture(scope="session")
def slapd(tmp_path_factory):
    server = directory_server.Slapd(tmp_path_factory.mktemp("slapd"))
    yield server
    server.stop()


def configure(settings, monkeypatch, server, **env) -> None:
    """Point the LDAP settings at `server` through the same ENCLAVE_LDAP_* variables a site sets."""
    values = {"ENCLAVE_LDAP_BIND_DN": directory_server.ROOT_DN, "ENCLAVE_LDAP_BIND_PASSWORD": directory_server.ROOT_PW,
              "ENCLAVE_LDAP_USER_BASE": directory_server.PEOPLE, "ENCLAVE_LDAP_GROUP_BASE": directory_server.GROUPS,
              "ENCLAVE_LDAP_CA_FILE": server.ca_file, **env}  # fmt: skip
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    for name, value in ldap_settings(env.get("uri", server.uri)).items():
        setattr(settings, name, value)
    settings.LDAP_URI = server.uri
    settings.AUTHENTICATION_BACKENDS = ["portal.auth.LoginLockoutBackend", "identity.ldap.DirectoryLDAPBackend",
                                        "identity.local.LocalBackend"]  # fmt: skip


@pytest.fixture
def directory(db, settings, monkeypatch, slapd):
    """The directory configured, and the site's rules: astro's PI and members, site admins."""
    configure(settings, monkeypatch, slapd)
    astro = services.create_tenant("astro", "Astrophysics")  # LDAP groups are named by their DN
    GroupRule.objects.create(group=directory_server.group_dn("hpc-astro-pi"), action="owner", tenant_slug="astro")
    GroupRule.objects.create(group=directory_server.group_dn("hpc-astro"), action="member", tenant_slug="astro")
    GroupRule.objects.create(group=directory_server.group_dn("hpc-admins"), action="site_admin")
    return astro


@pytest.fixture(scope="session")
def oidc_provider(tmp_path_factory, live_server):
    from tests.identity.oidc_provider import Provider

    server = Provider(tmp_path_factory.mktemp("oidc"), [live_server.url, "http://testserver"])
    yield server
    server.stop()


@pytest.fixture
def sso(db, settings, monkeypatch, oidc_provider):
    """OpenID Connect sign-in configured (the same ENCLAVE_OIDC_* variables a site sets), and the rules."""
    from portal.oidc_settings import oidc_settings

    for name, value in oidc_provider.env().items():
        monkeypatch.setenv(name, value)
    for name, value in oidc_settings("enclave").items():
        setattr(settings, name, value)
    settings.AUTHENTICATION_BACKENDS = ["portal.auth.LoginLockoutBackend", "identity.oidc.DirectoryOIDCBackend",
                                        "identity.local.LocalBackend"]  # fmt: skip
    astro = services.create_tenant("astro", "Astrophysics")
    GroupRule.objects.create(group="hpc-astro-pi", action="owner", tenant_slug="astro")
    GroupRule.objects.create(group="hpc-astro", action="member", tenant_slug="astro")
    return astro
