# Sourced by the Makefile's recipes: where the local services live and how to reach them.
# Every value can be overridden from the environment.
export ENCLAVE_HOME="${ENCLAVE_HOME:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
# Per-checkout overrides (ports, for two checkouts side by side); ignored by git.
# shellcheck disable=SC1091
[ -f "$ENCLAVE_HOME/.local.env" ] && set -a && source "$ENCLAVE_HOME/.local.env" && set +a
export ENCLAVE_DATA_DIR="${ENCLAVE_DATA_DIR:-$ENCLAVE_HOME/.data}"
export ENCLAVE_DB_HOST="${ENCLAVE_DB_HOST:-127.0.0.1}"
export ENCLAVE_DB_PORT="${ENCLAVE_DB_PORT:-54329}"
export ENCLAVE_DB_NAME="${ENCLAVE_DB_NAME:-enclave}"
# The application's role (web, worker, beat) and the schema owner's (migrations only): scripts/db-roles.sql.
export ENCLAVE_DB_USER="${ENCLAVE_DB_USER:-enclave_app}"
export ENCLAVE_DB_OWNER_USER="${ENCLAVE_DB_OWNER_USER:-enclave}"
export ENCLAVE_REDIS_PORT="${ENCLAVE_REDIS_PORT:-63799}"
export ENCLAVE_REDIS_URL="${ENCLAVE_REDIS_URL:-redis://127.0.0.1:$ENCLAVE_REDIS_PORT/0}"
if [ -z "${ENCLAVE_DB_PASSWORD:-}" ] && [ -f "$ENCLAVE_DATA_DIR/pg_app_password" ]; then
  ENCLAVE_DB_PASSWORD="$(cat "$ENCLAVE_DATA_DIR/pg_app_password")"
  export ENCLAVE_DB_PASSWORD
fi
if [ -z "${ENCLAVE_DB_OWNER_PASSWORD:-}" ] && [ -f "$ENCLAVE_DATA_DIR/pg_password" ]; then
  ENCLAVE_DB_OWNER_PASSWORD="$(cat "$ENCLAVE_DATA_DIR/pg_password")"
  export ENCLAVE_DB_OWNER_PASSWORD
fi
export PATH="$ENCLAVE_HOME/.venv/bin:$ENCLAVE_DATA_DIR/bin:/usr/local/go/bin:$PATH"
