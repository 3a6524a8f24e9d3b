"""schemathesis against the live test server's own OpenAPI schema, as a tenant member and as a site admin.

Every phase (examples, coverage, fuzzing, stateful) with every check, response conformance included: no
server error, no response the schema does not describe, no schema that states other constraints than the
API enforces (the `validation_mismatch` warning fails the run), and after every accepted write the site
policy still compiles (tests/security/schemathesis_hooks.py). Bounded and reproducible: a fixed seed,
deterministic generation and a modest number of examples per operation (tests/security/schemathesis.toml).
"""

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import requests
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

from audit.context import acting_as, system_actor
from portal.celery import app as celery_app
from tests.security.table import MODULES
from tests.security.world import AbuseWorld
from users.models import TokenScope
from users.services import create_token

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
# The only operations left out: they name a vCenter by host and port, which a fuzzer fills with any host.
OUTSIDE_HOSTS = ["vcenters_create", "vcenters_update", "vcenters_partial_update", "vcenters_discover_create"]
FUZZ_QUEUE = "enclave-fuzz-discard"

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fuzz_world(live_server):
    """The abuse world (every app's objects), committed, so the live server sees it."""
    with acting_as(system_actor("schemathesis")):
        return AbuseWorld(MODULES)


@pytest.fixture
def quiet_queue(redis_client):
    """Work the fuzzed writes queue goes to a queue no worker consumes, dropped afterwards.

    The reconcilers would otherwise act on fuzz-made intent (and a session's Celery worker may be up);
    their own suites test them.
    """
    saved = celery_app.conf.task_routes
    celery_app.conf.task_routes = {"*": {"queue": FUZZ_QUEUE}}
    celery_app.amqp.__dict__.pop("router", None)
    yield
    celery_app.conf.task_routes = saved
    celery_app.amqp.__dict__.pop("router", None)
    redis_client.delete(FUZZ_QUEUE)


@pytest.fixture
def unthrottled(settings):
    """The fuzzer sends faster than a person, and revokes its own token at times (then it gets a new one):
    lift the per-user and failed-token rates (the throttles have their own tests)."""
    settings.API_RATES = {**settings.API_RATES, "user": "100000/minute", "bearer_failure": "100000/minute"}


def _schema(live_server, world, tmp_path) -> Path:
    """The live server's schema, fetched as a site admin (it is staff-only by default)."""
    _, raw = create_token(world.admin, "schema", scope=TokenScope.READ)
    response = requests.get(f"{live_server.url}/api/schema/?format=json", headers={"Authorization": f"Bearer {raw}"},
                            timeout=60)  # fmt: skip
    response.raise_for_status()
    path = tmp_path / "openapi.json"
    path.write_bytes(response.content)
    return path


# Body and query properties that name another object, and where their ids come from: a schema can say
# "a positive integer", not which ids exist, so the fuzzer draws real ones most of the time.
REFERENCES = {
    "tenant": "tenants.Tenant", "policy": "netpolicy.FirewallPolicy", "segment": "netpolicy.Segment",
    "services[*]": "netpolicy.Service", "sources[*]": "netpolicy.Group", "destinations[*]": "netpolicy.Group",
    "id_pool": "netpolicy.Pool", "prefix_pool": "netpolicy.Pool", "node_pool": "agents.NodePool",
    "pool": "agents.NodePool", "host": "vsphere.Host", "pf": "vsphere.PhysicalFunction", "vcenter": "vsphere.VCenter",
}  # fmt: skip


def _config(tmp_path, role: str) -> Path:
    """tests/security/schemathesis.toml with dictionaries of this world's ids (and valid future dates)."""
    lines = [(HERE / "schemathesis.toml").read_text()]
    if role == "admin":
        lines += ["[warnings]", 'fail-on = ["validation_mismatch"]']
    lines.append("[parameters]")
    dictionaries = []
    for prop, label in REFERENCES.items():
        name = prop.strip("[*]").replace("_", "-")
        ids = sorted(apps.get_model(label).objects.values_list("pk", flat=True))
        dictionaries.append(f"[dictionaries.{name}]\nvalues = {ids or [1]}")
        lines.append(f'"body.{prop}" = {{ dictionary = "{name}", probability = 0.8 }}')
        if "[" not in prop:
            lines.append(f'"query.{prop}" = {{ dictionary = "{name}", probability = 0.8 }}')
    usernames = json.dumps(sorted(get_user_model().objects.values_list("username", flat=True)))
    dates = json.dumps([(timezone.localdate() + datetime.timedelta(days=d)).isoformat() for d in (45, 60, 90)])
    dictionaries += [f"[dictionaries.usernames]\nvalues = {usernames}", f"[dictionaries.dates]\nvalues = {dates}"]
    lines += ['"body.username" = { dictionary = "usernames", probability = 0.8 }',
              '"body.lease_end" = { dictionary = "dates", probability = 0.8 }', "", *dictionaries, ""]  # fmt: skip
    path = tmp_path / "schemathesis.toml"
    path.write_text("\n".join(lines))
    return path


def run_schemathesis(live_server, world, role: str, tmp_path) -> subprocess.CompletedProcess:
    """`st run` with tests/security/schemathesis.toml as the world's `role`; its report lands in tmp_path."""
    schema = _schema(live_server, world, tmp_path)
    env = dict(os.environ, ENCLAVE_FUZZ_USER=getattr(world, role).username,
               ENCLAVE_DB_NAME=settings.DATABASES["default"]["NAME"],
               SCHEMATHESIS_HOOKS="tests.security.schemathesis_hooks", PYTHONPATH=str(ROOT), NO_COLOR="1")  # fmt: skip
    cmd = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(_config(tmp_path, role)), "run",
           str(schema), "--url", live_server.url, "--report", "ndjson", "--report-dir", str(tmp_path)]  # fmt: skip
    for operation_id in OUTSIDE_HOSTS:
        cmd += ["--exclude-operation-id", operation_id]
    cmd += os.environ.get("ENCLAVE_SCHEMATHESIS_ARGS", "").split()  # e.g. "--phases coverage" for a full sweep
    with open(tmp_path / "output.txt", "w") as out:
        return subprocess.run(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, text=True, timeout=3000)


@pytest.mark.timeout(3600)
@pytest.mark.parametrize("role", ["member_a", "admin"])
def test_the_api_keeps_its_schema_and_never_errs_under_schemathesis(live_server, fuzz_world, quiet_queue, unthrottled,
                                                                   role, tmp_path):  # fmt: skip
    result = run_schemathesis(live_server, fuzz_world, role, tmp_path)
    assert result.returncode == 0, (tmp_path / "output.txt").read_text()[-20000:]
