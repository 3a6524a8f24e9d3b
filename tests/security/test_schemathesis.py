"""schemathesis against the live test server's own OpenAPI schema, as every role: a user of no tenant, a
tenant member, a tenant owner and a site admin.

Fuzzing with every check, response conformance included: no server error, no response the schema does not
describe, no schema that states other constraints than the API enforces (as a site admin the
`validation_mismatch` warning fails the run), and after every accepted write the site policy still
compiles (tests/security/schemathesis_hooks.py). Bounded and reproducible: deterministic generation
(derandomized), ids that continue from each table's highest, a modest number of examples per operation and role
(tests/security/schemathesis.toml, GENERATION), the least privileged role first and the site admin last.
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
from django.core.management.color import no_style
from django.db import connection
from django.utils import timezone

from audit.context import acting_as, system_actor
from portal.celery import app as celery_app
from portal.dbroles import as_owner
from tests.security.table import MODULES
from tests.security.world import AbuseWorld
from users.models import TokenScope
from users.services import create_token
from vsphere.models import VCenter

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
# The only operations left out: they name a vCenter or an NSX Manager by host and port (or URL), which a fuzzer
# fills with any host.
OUTSIDE_HOSTS = ["vcenters_create", "vcenters_update", "vcenters_partial_update", "vcenters_discover_create",
                 "nsx_managers_create", "nsx_managers_update", "nsx_managers_partial_update",
                 "nsx_managers_check_create"]  # fmt: skip
FUZZ_QUEUE = "enclave-fuzz-discard"

pytestmark = pytest.mark.django_db(transaction=True)
# Least privileged first: their refused writes meet the world as built; the site admin's writes come last.
ROLES = ("outsider", "member_a", "owner_a", "admin")
# Data and examples per operation: the site admin reaches every write's validation with valid and invalid
# data; the others send valid data only (invalid data is refused alike whoever sends it) and are mostly
# refused (403, or 404 for what they may not see), which a few examples per operation already show.
GENERATION = {"outsider": ("positive", 1), "member_a": ("positive", 2), "owner_a": ("positive", 2), "admin": ("all", 6)}


@pytest.fixture
def fuzz_world(live_server):
    """The abuse world (every app's objects) and a user of no tenant, committed, so the live server sees them."""
    _restart_ids()
    with acting_as(system_actor("schemathesis")):
        world = AbuseWorld(MODULES)
    world.outsider = get_user_model().objects.create_user("sec-outsider", "sec-outsider@example.org", "pw")
    world.doomed_vcenter = VCenter.objects.get(pk=world.vcenter.pk)
    world.doomed_vcenter.pk, world.doomed_vcenter.name = None, "sec-doomed"
    world.doomed_vcenter.nsx = None  # the world's NSX Manager stays with the world's vCenter
    world.doomed_vcenter.save()
    return world


def _restart_ids() -> None:
    """Each table's ids continue from its highest (not from where earlier tests' rolled-back rows left the
    sequence), so generated ids meet the same objects on every run. As the owner: the app role may not."""
    with as_owner(), connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), apps.get_models(include_auto_created=True)):
            cursor.execute(sql)


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
# A segment's id pool is a VLAN or VNI pool, its prefix pool an address pool (which kind goes with which
# segment is a rule across objects).
REFERENCES = {
    "tenant": ("tenants.Tenant", {}), "policy": ("netpolicy.FirewallPolicy", {}),
    "segment": ("netpolicy.Segment", {}), "services[*]": ("netpolicy.Service", {}),
    "sources[*]": ("netpolicy.Group", {}), "destinations[*]": ("netpolicy.Group", {}),
    "id_pool": ("netpolicy.Pool", {"kind__in": ["vlan", "vni"]}),
    "prefix_pool": ("netpolicy.Pool", {"kind__in": ["ipv4", "ipv6"]}), "node_pool": ("agents.NodePool", {}),
    "pool": ("agents.NodePool", {}), "host": ("vsphere.Host", {}), "pf": ("vsphere.PhysicalFunction", {}),
    "vcenter": ("vsphere.VCenter", {}), "tenants[*]": ("tenants.Tenant", {}),
    "fabric": ("fabrics.Fabric", {}),
}  # fmt: skip
BODY_REFERENCES = {"site": ("vsphere.VCenter", {})}  # `?site=` is a boolean filter elsewhere
# A canonical network: JSON Schema states its spelling, never which bits are host bits (10.1.2.3/8 is refused),
# so the fuzzer draws free, canonical ones half of the time for a node pool's subnets (a pool's own cidr goes
# with its kind, which a dictionary does not know).
NETWORKS = ["10.201.0.0/16", "10.202.8.0/22", "192.168.77.0/24", "100.100.0.0/16", "fd00:201::/48", "2001:db8:77::/64"]
# PCI addresses no PF of the world has: the fuzzer also reuses those it has read, and a host has each PF once.
PCI_IDS = ["0000:af:00.0", "0000:af:00.1", "0000:d8:00.0"]


def _join_tokens(world) -> list[str]:
    """Unused join tokens of the world's node pool: a token is a secret the server makes, so a schema cannot
    offer one, and without one every join is a 404 before it reaches the interfaces' grammar."""
    from agents import services
    from fabrics import services as fabric_services

    with acting_as(system_actor("schemathesis")):
        return ([services.create_join_token(world.node_pool)[1] for _ in range(3)]
                + [fabric_services.create_join_token(world.fabric)[1] for _ in range(2)])  # fmt: skip


def _config(tmp_path, world, role: str) -> Path:
    """tests/security/schemathesis.toml with dictionaries of this world's ids (and valid future dates)."""
    lines = [(HERE / "schemathesis.toml").read_text()]
    if role == "admin":
        lines += ["[warnings]", 'fail-on = ["validation_mismatch"]']
    lines.append("[parameters]")
    dictionaries = []
    for prop, (label, filters) in (REFERENCES | BODY_REFERENCES).items():
        name = prop.strip("[*]").replace("_", "-")
        objects = apps.get_model(label).objects.filter(**filters)
        if label == "vsphere.VCenter":
            objects = objects.exclude(pk=world.doomed_vcenter.pk)  # deleted early by the fuzzer
        ids = sorted(objects.values_list("pk", flat=True))
        dictionaries.append(f"[dictionaries.{name}]\nvalues = {ids or [1]}")
        lines.append(f'"body.{prop}" = {{ dictionary = "{name}", probability = 0.8 }}')
        if prop in REFERENCES and "[" not in prop:
            lines.append(f'"query.{prop}" = {{ dictionary = "{name}", probability = 0.8 }}')
    usernames = json.dumps(sorted(get_user_model().objects.values_list("username", flat=True)))
    dates = json.dumps([(timezone.localdate() + datetime.timedelta(days=d)).isoformat() for d in (45, 60, 90)])
    dictionaries += [f"[dictionaries.usernames]\nvalues = {usernames}", f"[dictionaries.dates]\nvalues = {dates}",
                     f"[dictionaries.networks]\nvalues = {json.dumps(NETWORKS)}",
                     f"[dictionaries.pci-ids]\nvalues = {json.dumps(PCI_IDS)}",
                     f"[dictionaries.join-tokens]\nvalues = {json.dumps(_join_tokens(world))}"]  # fmt: skip
    lines += ['"body.username" = { dictionary = "usernames", probability = 0.8 }',
              '"body.lease_end" = { dictionary = "dates", probability = 0.8 }',
              '"body.pci_id" = { dictionary = "pci-ids", probability = 0.5 }',
              '"body.token" = { dictionary = "join-tokens", probability = 0.8 }', "", *dictionaries, ""]  # fmt: skip
    path = tmp_path / "schemathesis.toml"
    path.write_text("\n".join(lines + _per_operation(world)))
    return path


def _per_operation(world) -> list[str]:
    """Data for single operations: the networks of pool subnets, and the vCenter the fuzzer deletes.

    Deleting the world's vCenter early in the run (an operation like any other) would take the hosts and PFs
    that every later operation names; the fuzzer deletes one made for it instead (the vSphere suite deletes
    sites with hosts).
    """
    return [
        f"[dictionaries.doomed-vcenter]\nvalues = [{world.doomed_vcenter.pk}]", "",
        "[[operations]]", 'include-operation-id = "pool_subnets_create"',
        'parameters = { "body.cidr" = { dictionary = "networks", probability = 0.5 } }', "",
        "[[operations]]", 'include-operation-id = "vcenters_destroy"',
        'parameters = { "path.id" = { dictionary = "doomed-vcenter", probability = 1.0 } }', "",
        # An item fixes some of a request's fields, each item its own values (no schema can say which), so
        # most drawn bodies get the item's 400 ("fixed by this catalog item"; tests/catalog has the rule).
        # Which share of them does moves with every earlier answer the fuzzer draws from: not a warning here.
        "[[operations]]", 'include-operation-id = "catalog_items_request_create"', "warnings = false", "",
    ]  # fmt: skip


def run_schemathesis(live_server, world, role: str, schema: Path, tmp_path) -> subprocess.CompletedProcess:
    """`st run` with tests/security/schemathesis.toml as the world's `role`; its report lands in tmp_path."""
    tmp_path.mkdir()
    env = dict(os.environ, ENCLAVE_FUZZ_USER=getattr(world, role).username,
               ENCLAVE_DB_NAME=settings.DATABASES["default"]["NAME"],
               ENCLAVE_DB_CONN_MAX_AGE="3600",  # the hooks' checks keep one connection (~20 ms each to open)
               SCHEMATHESIS_HOOKS="tests.security.schemathesis_hooks", PYTHONPATH=str(ROOT), NO_COLOR="1")  # fmt: skip
    mode, examples = GENERATION[role]
    cmd = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(_config(tmp_path, world, role)), "run",
           str(schema), "--url", live_server.url, "--mode", mode, "--max-examples", str(examples),
           "--report", "ndjson", "--report-dir", str(tmp_path)]  # fmt: skip
    for operation_id in OUTSIDE_HOSTS:
        cmd += ["--exclude-operation-id", operation_id]
    cmd += os.environ.get("ENCLAVE_SCHEMATHESIS_ARGS", "").split()  # e.g. "--phases coverage" for a full sweep
    with open(tmp_path / "output.txt", "w") as out:
        return subprocess.run(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, text=True, timeout=1800)


@pytest.mark.timeout(3600)
def test_the_api_keeps_its_schema_and_never_errs_under_schemathesis_as_every_role(
    live_server, fuzz_world, pooled_connections, quiet_queue, unthrottled, tmp_path
):
    schema = _schema(live_server, fuzz_world, tmp_path)
    failed = {}
    for role in ROLES:
        result = run_schemathesis(live_server, fuzz_world, role, schema, tmp_path / role)
        if result.returncode != 0:
            failed[role] = (tmp_path / role / "output.txt").read_text()[-12000:]
    assert not failed, "\n".join(f"===== as {role} =====\n{output}" for role, output in failed.items())
