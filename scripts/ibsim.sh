#!/usr/bin/env bash
# A simulated InfiniBand fabric (ibsim + OpenSM, tests/fabric/simfabric.py) for demos and manual runs.
#   scripts/ibsim.sh start --workdir DIR [--ports N]   run in the foreground until Ctrl-C / SIGTERM;
#       DIR/ready.json then names the tools' environment (LD_PRELOAD, IBSIM_SOCKNAME), partitions.conf,
#       OpenSM's options file and pidfile, and the ports' GUIDs. The fabric agent runs against it with
#       env $(jq -r '.env|to_entries[]|"\(.key)=\(.value)"' DIR/ready.json) enclave-fabric-agent \
#           --partitions DIR/partitions.conf --options DIR/opensm.conf --pidfile DIR/opensm.pid run
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "${1:-}" in
start)
    shift
    cd "$ROOT" && exec "${PYTHON:-$ROOT/.venv/bin/python}" -m tests.fabric.simfabric "$@"
    ;;
*)
    echo "usage: $0 start --workdir DIR [--ports N]" >&2
    exit 2
    ;;
esac
