"""The real Terraform CLI (scripts/terraform.sh builds it and the provider) against the live test server."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from users.models import TokenScope
from users.services import create_token

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("ENCLAVE_DATA_DIR", ROOT / ".data")) / "bin"
PROVIDER = 'terraform {\n  required_providers {\n    enclave = { source = "enclave/enclave" }\n  }\n}\n'


@pytest.fixture(scope="session")
def terraform_bin() -> Path:
    """Terraform and the provider, built by the project's own script (a no-op when up to date)."""
    subprocess.run(["bash", str(ROOT / "scripts/terraform.sh"), "build"], check=True, timeout=1200)
    return BIN / "terraform"


class Terraform:
    """One working directory of Terraform configuration, run as a subprocess with a CLI config whose
    dev_overrides point at the built provider (no `terraform init`, no registry)."""

    def __init__(self, binary: Path, workdir: Path, url: str, token: str):
        self.binary, self.workdir = binary, workdir
        workdir.mkdir(parents=True, exist_ok=True)
        rc = workdir.parent / f"{workdir.name}.tfrc"
        rc.write_text(
            "provider_installation {\n  dev_overrides {\n"
            f'    "registry.terraform.io/enclave/enclave" = "{binary.parent}"\n  }}\n  direct {{}}\n}}\n'
        )
        inherited = {k: v for k, v in os.environ.items() if not k.startswith(("ENCLAVE_TOKEN", "ENCLAVE_CA", "TF_"))}
        self.env = {
            **inherited, "TF_CLI_CONFIG_FILE": str(rc), "CHECKPOINT_DISABLE": "1", "TF_IN_AUTOMATION": "1",
            "TF_INPUT": "0", "NO_COLOR": "1", "ENCLAVE_URL": url, "ENCLAVE_TOKEN": token,
        }  # fmt: skip

    def write(self, config: str, poll: str = "100ms") -> None:
        provider = f'provider "enclave" {{\n  poll_interval = "{poll}"\n}}\n'
        (self.workdir / "main.tf").write_text(PROVIDER + provider + config)

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        result = subprocess.run(
            [str(self.binary), *args, "-no-color"], cwd=self.workdir, env=self.env, capture_output=True, text=True,
            timeout=300,
        )  # fmt: skip
        if check and result.returncode != 0:
            raise AssertionError(f"terraform {' '.join(args)} failed ({result.returncode}):\n"
                                 f"{result.stdout}\n{result.stderr}")  # fmt: skip
        return result

    def apply(self, check: bool = True) -> subprocess.CompletedProcess:
        return self.run("apply", "-auto-approve", check=check)

    def plan_changes(self) -> int:
        """`plan -detailed-exitcode`: 0 no changes, 2 changes (1 is an error)."""
        result = self.run("plan", "-detailed-exitcode", check=False)
        assert result.returncode in (0, 2), result.stdout + result.stderr
        return result.returncode

    def state(self) -> dict:
        """The resources in the state, by address, with their attribute values."""
        shown = json.loads(self.run("show", "-json").stdout)
        resources = shown.get("values", {}).get("root_module", {}).get("resources", [])
        return {r["address"]: r["values"] for r in resources}


@pytest.fixture
def write_token(world):
    """A write-scope token of tenant A's owner (PI)."""
    _, raw = create_token(world.owner_a, "terraform", scope=TokenScope.WRITE)
    return raw


@pytest.fixture
def terraform(terraform_bin, live_server, write_token, tmp_path):
    return Terraform(terraform_bin, tmp_path / "tf", live_server.url, write_token)
