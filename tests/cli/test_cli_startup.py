"""The command line starts fast: its choices are plain tuples that must match the generated enums, `--help` loads
neither httpx nor the generated client, and a command loads only the endpoints and models it uses. No server."""

import json
import subprocess
import sys

from enclave_cli import choices

from tests.conftest import ROOT

# Each tuple of enclave_cli.choices and the generated enum (in enclave_client.models) whose values it copies.
MIRRORS = {
    "ACTIONS": "ActionEnum",
    "CLUSTER_STATES": "ClusterStateEnum",
    "DATA_PATHS": "DataPathEnum",
    "DELIVERY_STATES": "DeliveryStateEnum",
    "DIRECTIONS": "DirectionEnum",
    "GPU_MODES": "GpuModeEnum",
    "INTERCONNECTS": "InterconnectEnum",
    "NETWORK_MODES": "NetworkModeEnum",
    "NIC_TYPES": "NicTypeEnum",
    "SCOPES": "ScopeEnum",
    "SEGMENT_KINDS": "SegmentKindEnum",
    "WEBHOOK_EVENTS": "EventsEnum",
    "WORKLOAD_CLASSES": "WorkloadClassEnum",
}


def python(code: str) -> subprocess.CompletedProcess:
    """Run code in a fresh interpreter (nothing imported yet), as the `enclave` script starts."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def test_each_choice_tuple_equals_its_generated_enums_values():
    from enclave_client import models

    tuples = {name for name, value in vars(choices).items() if name.isupper() and isinstance(value, tuple)}
    assert tuples == set(MIRRORS), "every tuple in enclave_cli.choices needs its enum in MIRRORS"
    for name, enum_name in MIRRORS.items():
        values = tuple(member.value for member in getattr(models, enum_name))
        assert getattr(choices, name) == values, f"choices.{name} drifted from {enum_name}: use {values}"


def test_starting_the_command_line_loads_neither_httpx_nor_the_generated_client():
    done = python("import sys, enclave_cli.main\n"
                  "print([m for m in sys.modules if m.split('.')[0] in ('httpx', 'enclave_client')])")  # fmt: skip
    assert done.stdout.strip() == "[]"
    help_text = subprocess.run([sys.executable, "-m", "enclave_cli", "rules", "create", "--help"], cwd=ROOT,
                               capture_output=True, text=True, timeout=120).stdout  # fmt: skip
    assert "[allow|drop|reject]" in help_text and "[in|in-out|out]" in help_text


def test_a_connection_loads_only_the_models_used_and_the_package_still_has_every_name():
    done = python(
        "import json, sys\n"
        "from enclave_cli.api import Api\n"
        "from enclave_cli.config import Settings\n"
        "Api(Settings('p', 'http://127.0.0.1:9', 'enc_x', None))\n"
        "from enclave_client.api.tenants import tenants_list\n"
        "loaded = [m for m in sys.modules if m.startswith('enclave_client.models.')]\n"
        "from enclave_client.models import ScopeEnum, Tenant\n"
        "import enclave_client.models as models\n"
        "missing = [name for name in models.__all__ if not hasattr(models, name)]\n"
        "print(json.dumps([loaded, len(models.__all__), missing, Tenant.__module__, ScopeEnum('write').value]))"
    )
    loaded, exported, missing, tenant_module, scope = json.loads(done.stdout)
    assert 0 < len(loaded) < 10, loaded  # the endpoint's own models, not the package's ~500
    assert exported > 400 and missing == []  # looked up by name, the package runs its __init__ as before
    assert (tenant_module, scope) == ("enclave_client.models.tenant", "write")
