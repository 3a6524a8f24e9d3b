"""Tokens, profiles for several sites, and the config file's permissions through the `enclave` command line."""

import json
import os
import stat

import pytest
import yaml

from tests.cli.conftest import one_line_failure
from users.models import APIToken

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_token_is_created_shown_once_listed_and_revoked_by_name(enclave, tokens, world):
    created = enclave("tokens", "create", "laptop", "--scope", "read", "-o", "json", token=tokens["owner"])
    assert created.code == 0, created.err
    plaintext = json.loads(created.out)["token"]
    assert "shown only now" in created.err and APIToken.objects.get(name="laptop").hint == plaintext[:8]

    me = json.loads(enclave("whoami", "-o", "json", token=plaintext).out)
    assert (me["user"], me["token"], me["scope"], me["tenants"]) == ("owner-a", "laptop", "read", ["tenant-a (owner)"])
    listed = json.loads(enclave("tokens", "list", "-o", "json", token=plaintext).out)
    assert "token" not in listed[0] and {t["name"] for t in listed} == {"cli-owner", "laptop"}

    revoked = enclave("tokens", "revoke", "laptop", "-o", "json", token=tokens["owner"])
    assert json.loads(revoked.out)["is_active"] is False, revoked.err
    refused = enclave("tenants", "list", token=plaintext)
    assert "the server refused the token: Invalid, expired or revoked token. (HTTP 401)" in one_line_failure(refused)


def test_two_profiles_are_saved_0600_and_switched(enclave, tokens, config_path, live_server):
    saved = enclave("login", "--url", live_server.url, "--profile", "site-a", "--token-stdin", url=None,
                    stdin=tokens["owner"] + "\n")  # fmt: skip
    assert saved.code == 0 and "Saved profile site-a" in saved.err, saved.err
    assert stat.S_IMODE(config_path.stat().st_mode) == 0o600
    assert stat.S_IMODE(config_path.parent.stat().st_mode) == 0o700
    second = enclave("profile", "set", "site-b", "--url", live_server.url, "--token-stdin", url=None,
                     stdin=tokens["owner_b"] + "\n")  # fmt: skip
    assert second.code == 0 and stat.S_IMODE(config_path.stat().st_mode) == 0o600

    def tenants(*args, **extra):
        result = enclave(*args, "tenants", "list", "-o", "json", url=None, **extra)
        assert result.code == 0, result.err
        return [t["slug"] for t in json.loads(result.out)]

    assert tenants() == ["tenant-a"]  # login made site-a the current profile
    assert tenants("--profile", "site-b") == ["tenant-b"]
    assert tenants(ENCLAVE_PROFILE="site-b") == ["tenant-b"]
    assert enclave("profile", "use", "site-b", url=None).code == 0
    assert tenants() == ["tenant-b"]
    listed = enclave("profile", "list", url=None).out.splitlines()
    assert listed[1].split()[:3] == ["-", "site-a", live_server.url]
    assert listed[2].split()[:3] == ["*", "site-b", live_server.url]
    assert tokens["owner"] not in "\n".join(listed)  # only a hint of each token
    assert tenants(ENCLAVE_TOKEN=tokens["owner"]) == ["tenant-a"]  # the environment wins over the profile
    unknown = enclave("--profile", "site-c", "tenants", "list", url=None)
    assert "no profile named 'site-c'" in one_line_failure(unknown)


def test_a_config_file_with_a_token_readable_by_others_is_refused(enclave, tokens, config_path, live_server):
    config_path.parent.mkdir(parents=True)
    config_path.write_text(
        yaml.safe_dump({"current": "a", "profiles": {"a": {"url": live_server.url, "token": tokens["owner"]}}})
    )
    os.chmod(config_path, 0o644)
    refused = enclave("tenants", "list", url=None)
    line = one_line_failure(refused)
    assert line == f"enclave: {config_path} holds a token and is readable by others (mode 0644); " \
                   f"run: chmod 600 {config_path}"  # fmt: skip
    os.chmod(config_path, 0o600)
    assert enclave("tenants", "list", url=None).code == 0


def test_without_any_url_or_token_the_cli_says_how_to_log_in(enclave, config_path):
    assert "no server configured" in one_line_failure(enclave("tenants", "list", url=None))
    assert "no token for" in one_line_failure(enclave("tenants", "list"))
