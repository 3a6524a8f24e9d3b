#!/usr/bin/env bash
# Build docker-compose.yml's images from Debian packages alone and run the stack with podman
# (no Docker, no image registry), then check it end to end with deploy/smoke.py: /healthz, a
# login through the form, a cluster request approved to Ready on the vCenter simulator. Also
# checks the portal image itself: unprivileged, no test tools, static files served.
# Leaves nothing running: containers, volumes and the generated .env files are removed.
# `ha`: the same for deploy/ha.compose.yml (the high-availability profile) with a failover in the
# middle (deploy/smoke-ha.sh).
#   bash deploy/smoke.sh            (root)
#   bash deploy/smoke.sh ha         (root)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
mode="${1:-single}"
case "$mode" in single | ha) ;; *) echo "usage: bash deploy/smoke.sh [ha]" >&2; exit 2 ;; esac
log() { echo "smoke: $*"; }

missing=()
while read -r pkg; do
  case "$pkg" in ""|"#"*) continue ;; esac
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done < deps/apt-compose.txt
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

export ENCLAVE_BASE_IMAGE="${ENCLAVE_BASE_IMAGE:-localhost/enclave-debian:bookworm}"
export ENCLAVE_WEB_PORTS=  # each web replica on a free loopback port (podman maps no port ranges)
bash deploy/base-image.sh

# Podman's defaults fail on some machines; say exactly why, then retry with what works there.
work="$ENCLAVE_DATA_DIR/smoke$([ "$mode" = single ] || echo -ha)"  # logs of the last run stay here
rm -rf "$work" && mkdir -p "$work"
limits=()
probe() { podman run --rm --network none "$ENCLAVE_BASE_IMAGE" true; }
if ! why="$(probe 2>&1)"; then
  log "podman run with the default engine settings fails: $why"
  # crun refuses a cgroup v1/v2 hybrid host ("cgroups in hybrid mode not supported"), and without
  # CAP_SYS_RESOURCE the default rlimits (nofile/nproc above ours) cannot be set: use runc and
  # rlimits below the current hard limits.
  printf '[containers]\ndefault_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]\n[engine]\nruntime = "runc"\n' \
    >"$work/containers.conf"
  export CONTAINERS_CONF="$work/containers.conf"
  why="$(probe 2>&1)" || { log "podman cannot run containers here either: $why"; exit 1; }
  # The same for web (and HAProxy), whose 65536 open files cannot be set either (and an explicit --ulimit makes
  # podman drop the default nproc limit above, so name that too).
  raised=(web); [ "$mode" = ha ] && raised=(web1 web2 haproxy)
  { echo services:; for w in "${raised[@]}"; do
    printf '  %s:\n    ulimits: {nofile: {soft: 4096, hard: 4096}, nproc: 4096}\n' "$w"
  done; } >"$work/limits.compose.yml"
  limits=(-f "$work/limits.compose.yml")
  log "using $CONTAINERS_CONF (runc, nofile/nproc 4096) and $work/limits.compose.yml"
fi

envs=(.env .env.db-owner .env.postgres)
[ "$mode" = ha ] && envs=(.env .env.db-owner .env.patroni)
for f in "${envs[@]}"; do
  [ -e "$f" ] && { log "$f exists: refusing to overwrite a real configuration"; exit 1; }
done
# The build trusts what this machine trusts (pip reaches PyPI through it, maybe via a TLS proxy).
cas=()
for ca in /usr/local/share/ca-certificates/*.crt; do
  [ -e "$ca" ] && [ ! -e "deploy/ca-certificates/$(basename "$ca")" ] || continue
  cp "$ca" deploy/ca-certificates/ && cas+=("deploy/ca-certificates/$(basename "$ca")")
done
project=enclavesmoke
files=(-f docker-compose.yml -f deploy/smoke.compose.yml)
[ "$mode" = ha ] && project=enclavesmokeha files=(-f deploy/ha.compose.yml -f deploy/smoke-ha.compose.yml)
pc() { podman-compose -p "$project" "${files[@]}" "${limits[@]}" "$@"; }
cleanup() {
  ! declare -F before_cleanup >/dev/null || before_cleanup  # the ha smoke keeps every container's log
  log "removing the stack"
  pc down -v >/dev/null 2>&1 || true
  podman volume ls -q | grep "^${project}_" | xargs -r podman volume rm -f >/dev/null 2>&1 || true
  podman network ls -q | grep "^${project}_" | xargs -r podman network rm -f >/dev/null 2>&1 || true
  rm -f "${envs[@]}" "${cas[@]}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM  # so that the EXIT trap runs
secret() { python3 -c 'import secrets; print(secrets.token_urlsafe(32))'; }
app_pw="$(secret)"
cat >.env <<EOF
ENCLAVE_PRODUCTION=1
ENCLAVE_SECRET_KEY=$(secret)
ENCLAVE_FIELD_ENCRYPTION_KEYS=$(secret)
ENCLAVE_ALLOWED_HOSTS=127.0.0.1,localhost
ENCLAVE_DB_HOST=postgres
ENCLAVE_DB_PORT=5432
ENCLAVE_DB_NAME=enclave
ENCLAVE_DB_USER=enclave_app
ENCLAVE_DB_PASSWORD=$app_pw
ENCLAVE_DB_OWNER_USER=enclave_owner
ENCLAVE_REDIS_URL=redis://redis:6379/0
ENCLAVE_EMAIL_BACKEND=django.core.mail.backends.console.EmailBackend
EOF
echo "ENCLAVE_DB_OWNER_PASSWORD=$(secret)" >.env.db-owner
if [ "$mode" = ha ]; then
  printf 'PATRONI_%s_PASSWORD=%s\n' SUPERUSER "$(secret)" REPLICATION "$(secret)" REWIND "$(secret)" >.env.patroni
else
  printf 'POSTGRES_USER=postgres\nPOSTGRES_PASSWORD=%s\n' "$(secret)" >.env.postgres
fi

log "building the simulator image and the stack's images (base $ENCLAVE_BASE_IMAGE)"
bash scripts/vcsim.sh build
mkdir -p "$work/vcsim" && cp "$(bash scripts/vcsim.sh path)" "$work/vcsim/vcsim"
podman build -q -t localhost/enclave-vcsim:smoke --build-arg BASE="$ENCLAVE_BASE_IMAGE" \
  -f deploy/vcsim.Containerfile "$work/vcsim" >/dev/null
# The logins seed_demo printed (admin, a PI, a member), as JSON for deploy/smoke.py.
seed_logins() {
  python3 -c 'import json, re, sys
found = dict(re.findall(r"^  (admin|alice|arno) +(\S+) ", sys.stdin.read(), re.M))
print(json.dumps(found) if len(found) == 3 else "")' <"$work/seed.log"
}
if [ "$mode" = ha ]; then
  source deploy/smoke-ha.sh
  exit 0
fi
start=$SECONDS
pc build >"$work/build.log" 2>&1 || true  # podman-compose 1.0.3 exits 0 on failed builds
grep -q "^Error" "$work/build.log" && { grep -B20 "^Error" "$work/build.log" | tail -40; exit 1; }
log "images built in $((SECONDS - start)) s: $(podman image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' \
  | grep -E 'enclave(-postgres|-redis)?:' | tr '\n' ' ')"

log "the portal image: user, test tools"
podman run --rm localhost/enclave:latest sh -c 'id -u; pip list --format=freeze' >"$work/image.txt"
[ "$(head -1 "$work/image.txt")" = 10001 ] || { log "the image runs as uid $(head -1 "$work/image.txt")"; exit 1; }
if grep -iE '^(pytest|playwright|ruff|hypothesis)==' "$work/image.txt"; then log "test tools in the image"; exit 1; fi

log "starting PostgreSQL, Redis and the simulator"
pc up -d postgres redis vcsim >"$work/up.log" 2>&1 || { cat "$work/up.log"; exit 1; }
for _ in $(seq 90); do podman exec "${project}_postgres_1" pg_isready -q -U postgres && break; sleep 2; done
podman exec "${project}_postgres_1" pg_isready -U postgres
for _ in $(seq 60); do podman exec "${project}_vcsim_1" test -s /run/secrets/vcsim.json && break; sleep 2; done
log "dbroles, migrate, demo data, the simulator as the site's vCenter"
pc run --rm dbroles >"$work/dbroles.log" 2>&1 || { cat "$work/dbroles.log"; exit 1; }
pc run --rm migrate >"$work/migrate.log" 2>&1 || { tail -30 "$work/migrate.log"; exit 1; }
pc run --rm web python manage.py seed_demo >"$work/seed.log" 2>&1 || { cat "$work/seed.log"; exit 1; }
pc run --rm web sh -c 'python manage.py seed_network_demo && python manage.py vsphere_register_sim /run/secrets/vcsim.json' \
  >"$work/register.log" 2>&1 || { cat "$work/register.log"; exit 1; }
logins="$(seed_logins)"
[ -n "$logins" ] || { log "seed_demo printed no logins"; cat "$work/seed.log"; exit 1; }

log "starting web, worker and beat (two replicas each, as the file says) and the webhook worker"
pc up -d web worker webhook-worker beat >"$work/up2.log" 2>&1 || { cat "$work/up2.log"; exit 1; }
webs=()
for c in $(podman ps --format '{{.Names}}' | grep "^${project}_web_" | sort); do
  webs+=("http://$(podman port "$c" 8000 | head -1)")
done
log "web replicas at ${webs[*]}"
[ ${#webs[@]} -eq 2 ] || { log "expected two web replicas"; exit 1; }
if ! python3 deploy/smoke.py --base "${webs[0]}" --replica "${webs[1]}" --logins "$logins"; then
  for s in web_1 web_2 worker_1 worker_2 webhook-worker_1 beat_1; do log "--- $s"; podman logs --tail 30 "${project}_$s" 2>&1 || true; done
  exit 1
fi
# podman runs no health checks by itself here (no systemd): run each once, as an orchestrator would.
for s in postgres_1 redis_1 web_1 web_2 worker_1 worker_2 webhook-worker_1 beat_1; do
  podman healthcheck run "${project}_$s" >/dev/null || { log "the health check of $s fails"; exit 1; }
done
log "every health check passes"
