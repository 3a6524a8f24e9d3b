"""Bad input is one clear line on stderr and a non-zero exit, never a traceback."""

import datetime
import socket

import pytest
from django.utils import timezone

from tenants import services
from tests.cli.conftest import one_line_failure
from tests.conftest import service_data
from users.models import APIToken

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_wrong_tenant_name_is_one_line_and_exit_1(enclave, tokens):
    result = enclave("clusters", "list", "--tenant", "astro", token=tokens["owner"])
    assert result.code == 1
    assert one_line_failure(result) == "enclave: no tenant named 'astro' (enclave tenants list shows yours)"


def test_another_tenants_name_is_as_unknown_as_a_wrong_one(enclave, tokens, world):
    services.create_cluster(world.tenant_b, world.owner_b, service_data(), submit=True)
    result = enclave("clusters", "show", "mpi-1", "--tenant", "tenant-b", token=tokens["owner"])
    assert one_line_failure(result) == "enclave: no tenant named 'tenant-b' (enclave tenants list shows yours)"


def test_an_unknown_cluster_name_is_one_line(enclave, tokens):
    result = enclave("clusters", "endorse", "nope", "--tenant", "tenant-a", token=tokens["owner"])
    assert one_line_failure(result) == "enclave: no cluster in tenant 'tenant-a' named 'nope'"


def test_an_invalid_token_is_one_line_and_exit_1(enclave):
    result = enclave("tenants", "list", token="enc_not-a-real-token")
    assert result.code == 1
    assert "the server refused the token: Invalid, expired or revoked token. (HTTP 401)" in one_line_failure(result)


def test_an_expired_token_is_one_line_and_exit_1(enclave, tokens):
    APIToken.objects.filter(name="cli-owner").update(expires_at=timezone.now() - datetime.timedelta(minutes=1))
    result = enclave("whoami", token=tokens["owner"])
    assert "(HTTP 401)" in one_line_failure(result)


def test_a_read_token_cannot_write_and_says_so(enclave, world):
    from users.services import create_token

    _, raw = create_token(world.owner_a, "reader")
    result = enclave("tokens", "create", "more", token=raw)
    assert "This token is read-only" in one_line_failure(result) and "(HTTP 403)" in result.err


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_server_that_is_down_is_one_line_and_exit_1(enclave):
    url = f"http://127.0.0.1:{closed_port()}"
    result = enclave("clusters", "list", token="enc_whatever", url=url)
    assert result.code == 1
    assert one_line_failure(result) == (
        f"enclave: cannot reach {url}: Connection refused (is the server up and the URL right?)"
    )


def test_tls_is_verified_and_a_missing_ca_bundle_is_one_line(enclave, tmp_path):
    missing = tmp_path / "nope.pem"
    result = enclave("--ca-bundle", str(missing), "tenants", "list", token="enc_x", url="https://127.0.0.1:9")
    assert one_line_failure(result).startswith(f"enclave: cannot use CA bundle {missing}")


def test_a_url_that_is_not_an_enclave_api_is_one_line(enclave, live_server):
    result = enclave("tenants", "list", token="enc_x", url=f"{live_server.url}/static")
    assert one_line_failure(result).startswith("enclave: ")
