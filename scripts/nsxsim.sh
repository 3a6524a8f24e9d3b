#!/usr/bin/env bash
# Run Enclave's NSX Manager stand-in (tools/nsxsim: the Policy API, validated by the NSX SDK).
#   scripts/nsxsim.sh start [flags]  run in the foreground with the project's venv (flags: -h)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="$ROOT/.venv/bin/python"
[[ -x "$PYTHON" ]] || PYTHON="$(command -v python3)"

case "${1:-}" in
    start)
        shift
        exec "$PYTHON" "$ROOT/tools/nsxsim/server.py" "$@"
        ;;
    *)
        echo "usage: $0 start --port P --workdir DIR [flags]" >&2
        exit 2
        ;;
esac
