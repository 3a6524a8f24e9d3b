"""The `enclave` command line run as a subprocess against the live test server, with tokens of the world's users."""

import os
import subprocess
import sys
from dataclasses import dataclass

import pytest

from tests.conftest import ROOT
from users.services import create_token

SCRUBBED = ("ENCLAVE_TOKEN", "ENCLAVE_URL", "ENCLAVE_PROFILE", "ENCLAVE_TENANT", "ENCLAVE_CA_BUNDLE", "ENCLAVE_DEBUG")


@dataclass
class Result:
    code: int
    out: str
    err: str


def cli_env(config_path, url=None, token=None, **extra) -> dict:
    """The environment of one run: no token or URL but those given, and the test's own config file."""
    env = {key: value for key, value in os.environ.items() if key not in SCRUBBED}
    env.update(ENCLAVE_CONFIG=str(config_path), ENCLAVE_POLL_INTERVAL="0.2", PYTHONUNBUFFERED="1")
    env.update({"ENCLAVE_URL": url} if url else {})
    env.update({"ENCLAVE_TOKEN": token} if token else {})
    env.update(extra)
    return env


def command(*args) -> list[str]:
    return [sys.executable, "-m", "enclave_cli", *args]


@pytest.fixture
def tokens(world):
    """A write token for each of the world's users, by role name."""
    users = {"admin": world.admin, "owner": world.owner_a, "member": world.member_a, "owner_b": world.owner_b}
    return {role: create_token(user, f"cli-{role}", scope="write")[1] for role, user in users.items()}


@pytest.fixture
def config_path(tmp_path):
    return tmp_path / "enclave" / "config.yaml"


@pytest.fixture
def enclave(live_server, config_path):
    """Run `enclave ARGS` as a user (a token) on the live server; `url=None` leaves the URL to the profile."""

    def run(*args, token=None, url=live_server.url, stdin=None, **extra) -> Result:
        done = subprocess.run(command(*args), cwd=ROOT, env=cli_env(config_path, url, token, **extra), input=stdin,
                              capture_output=True, text=True, timeout=120)  # fmt: skip
        return Result(done.returncode, done.stdout, done.stderr)

    return run


def one_line_failure(result: Result) -> str:
    """A refusal as the issue asks: non-zero, one line on stderr, no traceback; the line."""
    assert result.code != 0, result
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.err, result.err
    assert lines[0].startswith("enclave: "), lines
    return lines[0]
