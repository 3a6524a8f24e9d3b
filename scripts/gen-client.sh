#!/usr/bin/env bash
# Regenerate the typed Python client (clients/python/enclave_client) from the API's OpenAPI schema.
# Usage: scripts/gen-client.sh [OUTPUT_DIR]   (default clients/python/enclave_client; the suite writes elsewhere)
# Deterministic: the schema comes from drf-spectacular, the code from openapi-python-client 0.29.1 with the
# pinned config; both run the same way wherever the output goes.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
out="${1:-clients/python/enclave_client}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python manage.py spectacular --validate --fail-on-warn --file "$work/openapi.yaml"
(cd "$work" && openapi-python-client generate --path openapi.yaml --meta none \
  --config "$OLDPWD/clients/python/openapi-client-config.yaml" --output-path enclave_client --overwrite \
  --fail-on-warning >"$work/generate.log" 2>&1) || { cat "$work/generate.log" >&2; exit 1; }

rm -rf "$work/enclave_client/.ruff_cache" "$out"
mkdir -p "$(dirname "$out")"
cp -r "$work/enclave_client" "$out"
echo "gen-client: wrote $out"
