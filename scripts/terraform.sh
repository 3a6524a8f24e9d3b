#!/usr/bin/env bash
# Build the Terraform CLI and Enclave's Terraform provider into $ENCLAVE_DATA_DIR/bin.
#   scripts/terraform.sh build        build what is missing or stale (tests/terraform runs this first)
#   scripts/terraform.sh background   the same, detached, logging to $ENCLAVE_DATA_DIR/terraform-build.log
#                                     (bootstrap: a cold Terraform build takes 2-4 minutes on 2 cores, so
#                                     it overlaps the suite, whose Terraform tests run last and wait for it)
#   scripts/terraform.sh cli-config   print the path of a CLI config whose dev_overrides use the built provider
# Terraform is v1.5.7, the last MPL-licensed release, built from its source on the Go module proxy (below); the
# provider comes from terraform/provider (its go.mod/go.sum pin every module). No registry of
# Terraform's own is needed: the CLI config's dev_overrides point Terraform at the provider binary.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="$ROOT/terraform/provider"
DATA="${ENCLAVE_DATA_DIR:-$ROOT/.data}"
export GOBIN="$DATA/bin"
TERRAFORM_VERSION="1.5.7"
PROVIDER="$GOBIN/terraform-provider-enclave"
STAMP="$GOBIN/.terraform-provider-enclave.stamp"
CLI_CONFIG="$DATA/terraform/dev.tfrc"
# The provider's address in configurations: source = "enclave/enclave".
ADDRESS="registry.terraform.io/enclave/enclave"

go_cmd() {
    if command -v go >/dev/null 2>&1; then go "$@"; else /usr/local/go/bin/go "$@"; fi
}

# The release's list of state backends, and the same list with only those that keep state on this machine
# or behind a plain URL (local, remote, cloud, http, inmem): the eight others (azurerm, consul, cos, gcs,
# kubernetes, oss, pg, s3) bring the Kubernetes, Azure and Alibaba clients, a third of Terraform's packages
# and ~45% of a cold build's CPU (455 against 248 core-seconds on 2 cores), for state Enclave never keeps
# there. The hashes pin both files: another release fails here instead of being edited blindly.
BACKENDS_GO="internal/backend/init/init.go"
BACKENDS_GO_RELEASED="93accee6f27d509f187f0ce34694059f1a531b0c68a5ac978c0c08b6b213b424"
BACKENDS_GO_BUILT="586251edce7f93086d1b3d3d2e987a2d1f83ca5ff9ad5f097adfd84b5b222c07"
REMOTE_STATE_ONLY='backend(Azure|Consul|Cos|GCS|Kubernetes|OSS|Pg|S3)[ .]'

build_terraform() {
    if [[ -x "$GOBIN/terraform" ]] && "$GOBIN/terraform" version 2>/dev/null | head -1 | grep -qx "Terraform v$TERRAFORM_VERSION"; then
        return 0
    fi
    mkdir -p "$GOBIN"
    echo "terraform.sh: building Terraform v$TERRAFORM_VERSION into $GOBIN (a few minutes, once)" >&2
    # The release's own source and go.sum, as the Go module proxy serves and checksums them.
    local release work
    release="$(cd / && go_cmd mod download -json "github.com/hashicorp/terraform@v$TERRAFORM_VERSION" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
    if [[ -z "$release" || ! -f "$release/go.mod" ]]; then
        echo "terraform.sh: go mod download gave no source directory for Terraform v$TERRAFORM_VERSION" >&2
        exit 1
    fi
    work="$DATA/terraform/src"
    if [[ -d "$work" ]]; then chmod -R u+w "$work" && rm -rf "$work"; fi  # a failed build left it read-only
    mkdir -p "$work" && cp -R "$release/." "$work" && chmod -R u+w "$work"
    echo "$BACKENDS_GO_RELEASED  $work/$BACKENDS_GO" | sha256sum -c --quiet
    sed -i -E "/$REMOTE_STATE_ONLY/d" "$work/$BACKENDS_GO"
    echo "$BACKENDS_GO_BUILT  $work/$BACKENDS_GO" | sha256sum -c --quiet
    # Terraform's own packages without the compiler's optimisations and inlining (-N -l), the standard library
    # as vcsim built it (shared through the cache): this build is a tool for the suite and local trials, whose
    # Terraform runs spend their time in the provider and in starting processes. A quarter less CPU after
    # vcsim's build (79 against 61 core-seconds, terraform/provider/README.md).
    (cd "$work" && GOFLAGS="-mod=readonly -buildvcs=false" CGO_ENABLED=0 \
        go_cmd build -gcflags=all="-N -l" -gcflags=std= -ldflags="-s -w" -o "$GOBIN/terraform.new" .)
    mv -f "$GOBIN/terraform.new" "$GOBIN/terraform"
    rm -rf "$work"
}

# The stamp is a hash of the provider's sources and pinned modules: any change rebuilds.
source_hash() {
    (cd "$SRC" && find . -name '*.go' -print0 | sort -z | xargs -0 cat go.mod go.sum) | sha256sum | cut -d' ' -f1
}

build_provider() {
    local want
    want="$(source_hash)"
    if [[ -x "$PROVIDER" && -f "$STAMP" && "$(cat "$STAMP")" == "$want" ]]; then
        return 0
    fi
    mkdir -p "$GOBIN"
    echo "terraform.sh: building $PROVIDER" >&2
    # Built aside, then renamed: a Terraform run using the old binary never sees a half-written one.
    (cd "$SRC" && GOFLAGS="-mod=readonly -buildvcs=false" CGO_ENABLED=0 go_cmd build -o "$PROVIDER.new" .)
    mv -f "$PROVIDER.new" "$PROVIDER"
    echo "$want" >"$STAMP"
}

write_cli_config() {
    mkdir -p "$(dirname "$CLI_CONFIG")"
    local want
    want="$(printf 'provider_installation {\n  dev_overrides {\n    "%s" = "%s"\n  }\n  direct {}\n}\n' "$ADDRESS" "$GOBIN")"
    [[ -f "$CLI_CONFIG" && "$(cat "$CLI_CONFIG")" == "$want" ]] || printf '%s\n' "$want" >"$CLI_CONFIG"
}

case "${1:-}" in
    build)
        # One build at a time (parallel test processes each ask for it).
        mkdir -p "$GOBIN"
        exec 9>"$GOBIN/.terraform.lock"
        flock 9
        build_terraform
        build_provider
        write_cli_config
        ;;
    background)
        mkdir -p "$GOBIN"
        # Already under way (bootstrap starts it for `make test`): the tests wait for that one.
        if ! flock -n "$GOBIN/.terraform.lock" true; then
            echo "terraform.sh: Terraform and the provider are already being built ($DATA/terraform-build.log)" >&2
            exit 0
        fi
        # Detached (setsid) and niced. Where the kernel groups CPU time by session (autogroup, on in Debian),
        # the build still gets an equal share of the CPU while it runs, whatever its nice value.
        nohup setsid nice -n 19 bash "${BASH_SOURCE[0]}" build >"$DATA/terraform-build.log" 2>&1 </dev/null &
        echo "terraform.sh: building Terraform and the provider in the background ($DATA/terraform-build.log)" >&2
        ;;
    cli-config)
        write_cli_config
        echo "$CLI_CONFIG"
        ;;
    *)
        echo "usage: $0 build | background | cli-config" >&2
        exit 2
        ;;
esac
