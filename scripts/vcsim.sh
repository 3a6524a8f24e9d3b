#!/usr/bin/env bash
# Build and run Enclave's vSphere API simulator (tools/vcsim, govmomi pinned in its go.mod).
#   scripts/vcsim.sh build          install the binary into $ENCLAVE_DATA/bin if missing/outdated
#   scripts/vcsim.sh start [flags]  build if needed, then run in the foreground (flags: -h)
#   scripts/vcsim.sh path           print the binary's path
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="$ROOT/tools/vcsim"
DATA="${ENCLAVE_DATA_DIR:-${ENCLAVE_DATA:-$ROOT/.data}}"
export GOBIN="$DATA/bin"
BIN="$GOBIN/vcsim"
STAMP="$GOBIN/.vcsim.stamp"

go_cmd() {
    if command -v go >/dev/null 2>&1; then
        go "$@"
    else
        /usr/local/go/bin/go "$@"
    fi
}

# The stamp is a hash of the sources and the pinned module versions: any change rebuilds.
source_hash() {
    (cd "$SRC" && cat go.mod go.sum ./*.go) | sha256sum | cut -d' ' -f1
}

build() {
    local want
    want="$(source_hash)"
    if [[ -x "$BIN" && -f "$STAMP" && "$(cat "$STAMP")" == "$want" ]]; then
        return 0
    fi
    mkdir -p "$GOBIN"
    echo "vcsim.sh: building $BIN (govmomi pinned in tools/vcsim/go.mod)" >&2
    # -mod=readonly: use exactly the committed go.mod/go.sum, never upgrade. CGO off, as scripts/terraform.sh
    # builds Terraform and the provider: the standard library compiled here then serves those builds too
    # (~30 core-seconds fewer on a cold cache).
    (cd "$SRC" && GOFLAGS="-mod=readonly -buildvcs=false" CGO_ENABLED=0 go_cmd install .)
    echo "$want" >"$STAMP"
}

case "${1:-}" in
    build)
        build
        ;;
    start)
        shift
        build
        exec "$BIN" "$@"
        ;;
    path)
        echo "$BIN"
        ;;
    *)
        echo "usage: $0 build | start [vcsim flags] | path" >&2
        exit 2
        ;;
esac
