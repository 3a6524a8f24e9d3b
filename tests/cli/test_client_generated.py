"""The committed typed client (clients/python/enclave_client) is what scripts/gen-client.sh makes of today's schema."""

import filecmp
import subprocess

from tests.conftest import ROOT

COMMITTED = ROOT / "clients" / "python" / "enclave_client"


def differences(left, right, where="") -> list[str]:
    """Paths that are only on one side or differ, recursively."""
    compared = filecmp.dircmp(left, right, ignore=["__pycache__"])
    found = [f"{where}{name} (only committed)" for name in compared.left_only]
    found += [f"{where}{name} (only regenerated)" for name in compared.right_only]
    _, mismatch, errors = filecmp.cmpfiles(left, right, compared.common_files, shallow=False)
    found += [f"{where}{name} (differs)" for name in mismatch + errors]
    for name in compared.common_dirs:
        found += differences(left / name, right / name, f"{where}{name}/")
    return found


def test_the_committed_client_matches_a_fresh_generation_from_the_schema(tmp_path):
    fresh = tmp_path / "enclave_client"
    done = subprocess.run(["bash", "scripts/gen-client.sh", str(fresh)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    changed = differences(COMMITTED, fresh)
    assert not changed, "The API schema changed: run scripts/gen-client.sh and commit clients/python/enclave_client. " \
                        f"Differences: {', '.join(changed[:20])}"  # fmt: skip
