#!/usr/bin/env bash
# Run the whole suite: lint (ruff check, ruff format, mypy), Django checks, then pytest against the real services.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
# Tests use their own Redis database so a running `make run` is never disturbed.
export ENCLAVE_REDIS_URL="redis://127.0.0.1:$ENCLAVE_REDIS_PORT/15"
export ENCLAVE_EMAIL_BACKEND=django.core.mail.backends.locmem.EmailBackend
# Terraform v1.5.7 (the last MPL release, built from source by scripts/terraform.sh) and Enclave's
# provider (terraform/provider), for tests/terraform: built in the background (1-2 minutes of CPU when
# cold). `make test`'s bootstrap has already started it beside its installs; run alone, this starts it. The
# Terraform tests run last and wait for it.
bash scripts/terraform.sh background
bash scripts/lint.sh
echo "== migrations"; python manage.py makemigrations --check --dry-run -v0
echo "== pytest"
# The project's bytecode, once (seconds): where PYTHONDONTWRITEBYTECODE is set, as on this project's
# machines, every process the suite starts (pytest's workers, Celery workers, servers, the CLI, the agent
# in the VRF guest) would otherwise compile the project's modules again.
python -m compileall -q -j0 -x '/(\.venv|node_modules|\.data|\.git)/' . > /dev/null
# One process per core (ENCLAVE_TEST_WORKERS overrides; 0 runs in this process). One more than the
# cores looked better on this machine, whose speed varies by half between runs, but CI, the only figures
# that count, ran the suite in 1,445 s with one per core and 2,122 s with one more, and the extra process
# took the cores from the VRF guest and schemathesis, the two long poles. Each has its own test database and Redis database
# (tests/xdist_env.py); a file's tests stay in one process, so
# module fixtures (Chromium, the VRF guest) start once. Files are handed out in collection order,
# where tests/conftest.py puts the longest first: xdist's default reorder (most tests first) would
# start the VRF guest's single ~8-minute test near the end, alone.
python -m pytest -p tests.xdist_env -n "${ENCLAVE_TEST_WORKERS:-$(nproc)}" --dist loadfile --no-loadscope-reorder --durations=30 "$@"
