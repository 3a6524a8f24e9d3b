#!/usr/bin/env bash
# The habits `make lint`, `make test` and pre-commit share: any finding fails (no `|| true`).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== ruff check"; ruff check .
echo "== ruff format"; ruff format --check .
# Files and strictness are in pyproject.toml [tool.mypy]; the cache makes a re-run under a second.
echo "== mypy"; mypy
