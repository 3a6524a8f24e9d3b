"""The provider's Go side: formatted, vetted, and its unit tests pass (client errors, waiting rules)."""

import os
import shutil
import subprocess

from tests.terraform.conftest import ROOT

SOURCE = ROOT / "terraform/provider"
GO = shutil.which("go") or "/usr/local/go/bin/go"
# As scripts/terraform.sh builds the provider (CGO off): vet and the tests check what ships, and they reuse that
# build's compiled packages (with cgo on, every package was compiled again: ~40 core-seconds).
ENV = {"GOFLAGS": "-mod=readonly -buildvcs=false", "CGO_ENABLED": "0"}


def go(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([GO, *args], cwd=SOURCE, env={**os.environ, **ENV}, capture_output=True, text=True,
                          timeout=600)  # fmt: skip


def test_the_provider_is_gofmt_clean_and_vet_clean(terraform_bin):  # after the build, to share its cache
    gofmt = subprocess.run([shutil.which("gofmt") or "/usr/local/go/bin/gofmt", "-l", "."], cwd=SOURCE,
                           capture_output=True, text=True)  # fmt: skip
    assert gofmt.stdout == "", f"not gofmt'd: {gofmt.stdout}"
    vet = go("vet", "./...")
    assert vet.returncode == 0, vet.stdout + vet.stderr


def test_the_providers_go_unit_tests_pass(terraform_bin):
    result = go("test", "./...")
    assert result.returncode == 0, result.stdout + result.stderr
