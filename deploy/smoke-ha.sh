# Sourced by `bash deploy/smoke.sh ha` once it has built the base and simulator images and written the
# env files (it defines log, pc, project, work and seed_logins, and removes everything on exit).
# Builds deploy/ha.compose.yml's images, starts the profile, checks that Patroni has a leader and a
# synchronous standby, that the Sentinels see the master and both replicas, that exactly one beat holds
# the lease and that both web replicas answer through HAProxy, then runs deploy/smoke.py through
# HAProxy; then SIGKILLs the Patroni leader, the Redis master and the beat holder in turn (each stays
# down, as a lost machine would) and runs the smoke again after each: the clusters acknowledged before
# are still Ready. Container logs and the figures stay in .data/smoke-ha/.
export ENCLAVE_WEB_PORT= ENCLAVE_PG_PORT=  # HAProxy on free loopback ports (`podman port`)
engines=(etcd1 etcd2 etcd3 pg1 pg2 pg3 redis1 redis2 redis3 sentinel1 sentinel2 sentinel3)
roles=(web1 web2 worker1 worker2 webhook-worker1 webhook-worker2 beat1 beat2)
ctr() { echo "${project}_$1_1"; }
figures=()
figure() { figures+=("$1"); log "$1"; }

# Every container's log into $work/logs (on success and failure alike).
keep_logs() {
  mkdir -p "$work/logs"
  for c in $(podman ps -a --format '{{.Names}}' | grep "^${project}_"); do
    podman logs "$c" >"$work/logs/${c#"${project}"_}.log" 2>&1 || true
  done
  printf '%s\n' "${figures[@]}" >"$work/figures.txt"
}
before_cleanup() { keep_logs; }

# wait_until SECONDS WHAT COMMAND...: run COMMAND every 2 s until it succeeds; sets $waited.
wait_until() {
  local limit=$1 what=$2 t0=$SECONDS
  shift 2
  until "$@" >/dev/null 2>&1; do
    [ $((SECONDS - t0)) -lt "$limit" ] || { log "gave up after $limit s waiting for: $what"; exit 1; }
    sleep 2
  done
  waited=$((SECONDS - t0))
}

# Patroni's view of the cluster (GET /cluster) from the first member that answers.
patroni() {
  local m
  for m in pg1 pg2 pg3; do
    podman exec "$(ctr "$m")" curl -fsS --max-time 3 http://127.0.0.1:8008/cluster 2>/dev/null && return
  done
  return 1
}
# The running members in these Patroni roles (leader, sync_standby, replica), space-separated.
members() {
  patroni | python3 -c 'import json, sys
print(" ".join(m["name"] for m in json.load(sys.stdin)["members"]
               if m["role"] in sys.argv[1:] and m["state"] in ("running", "streaming")))' "$@"
}
patroni_ready() { [ -n "$(members leader)" ] && [ -n "$(members sync_standby)" ]; }
leader_is_not() { local now; now="$(members leader)"; [ -n "$now" ] && [ "$now" != "$1" ]; }
rejoined() { members sync_standby replica | grep -qw "$1" && patroni_ready; }

# One Sentinel's answer (the first that answers).
sentinel() {
  local s
  for s in sentinel1 sentinel2 sentinel3; do
    podman exec "$(ctr "$s")" redis-cli -p 26379 "$@" 2>/dev/null && return
  done
  return 1
}
# The Redis service the Sentinels name master (they name redis1 by host name, a promoted replica by address).
redis_master() {
  local addr r
  addr="$(sentinel sentinel get-master-addr-by-name enclave | head -1)"
  for r in redis1 redis2 redis3; do
    [ "$addr" = "$r" ] || [ "$addr" = "$(podman inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$(ctr "$r")")" ] \
      && { echo "$r"; return; }
  done
  return 1
}
# The master answers as one, and every Sentinel counts this many replicas that are up.
sentinels_see() {
  local master s up
  master="$(redis_master)" || return 1
  [ "$(podman exec "$(ctr "$master")" redis-cli role | head -1)" = master ] || return 1
  for s in sentinel1 sentinel2 sentinel3; do
    up="$(podman exec "$(ctr "$s")" redis-cli -p 26379 sentinel replicas enclave \
      | awk 'key == "flags" && $0 == "slave" {n++} {key = $0} END {print n + 0}')"
    [ "$up" -eq "$1" ] || return 1
  done
}
master_is_not() { local now; now="$(redis_master)" && [ "$now" != "$1" ] && sentinels_see "$2"; }

healthy() { local s; for s in "$@"; do podman healthcheck run "$(ctr "$s")" >/dev/null || return 1; done; }
through_haproxy() { python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1] + "/healthz", timeout=5)' "$base"; }

# The beat replica whose host name the Redis lease names; exactly one, and only it says it holds the schedule.
beat_holder() {
  local lease b holder="" claims=0
  lease="$(podman exec "$(ctr "$(redis_master)")" redis-cli get enclave:beat:lease)"
  for b in "$@"; do
    [ "${lease%%:*}" = "$(podman inspect -f '{{.Config.Hostname}}' "$(ctr "$b")")" ] && holder="$b"
  done
  [ -n "$holder" ] && echo "$holder"
}
holder_is() { [ "$(beat_holder beat1 beat2)" = "$1" ]; }
# How many times the beat replicas logged taking the lease.
lease_claims() {
  local b n=0
  for b in beat1 beat2; do n=$((n + $(podman logs "$(ctr "$b")" 2>&1 | grep -c "holds the schedule" || true))); done
  echo "$n"
}
# Web replicas behind HAProxy: both UP and both having served requests (its stats, read from inside).
haproxy_served_both() {
  podman exec "$(ctr web1)" python -c 'import csv, io, urllib.request
rows = csv.reader(io.StringIO(urllib.request.urlopen("http://haproxy:8404/stats;csv", timeout=5).read().decode()))
web = {r[1]: (r[17], int(r[7])) for r in rows if r[0] == "web" and r[1] in ("web1", "web2")}
print(web)
raise SystemExit(0 if len(web) == 2 and all(s == "UP" and n > 0 for s, n in web.values()) else 1)'
}

# GET /healthz through HAProxy every 0.2 s for $1 seconds; prints "failed/total, window W s" (W: from the
# first failed request to the last; a 503, the portal saying its database or Redis is away, is a failure).
probe() {
  python3 - "$base" "$1" <<'PY'
import sys, time, urllib.request
base, until, ok, failed = sys.argv[1], time.monotonic() + float(sys.argv[2]), 0, []
while time.monotonic() < until:
    started = time.monotonic()
    try:
        urllib.request.urlopen(base + "/healthz", timeout=5).read()
        ok += 1
    except OSError:
        failed.append(started)
    time.sleep(0.2)
window = failed[-1] - failed[0] if failed else 0.0
print(f"{len(failed)}/{ok + len(failed)}, window {window:.1f} s")
PY
}

smoke_round() {  # smoke_round NAME [--still-ready ID ...]: deploy/smoke.py through HAProxy
  local name=$1
  shift
  if ! python3 deploy/smoke.py --base "$base" --logins "$logins" --name "$name" --record "$work/$name.id" "$@" \
    | tee "$work/$name.log"; then
    log "deploy/smoke.py failed ($name)"
    exit 1
  fi
}

start=$SECONDS
# ENCLAVE_SMOKE_NO_CACHE=1: every layer afresh, as on a new machine (the build time in the documentation).
# One service per image: podman-compose builds an image once for every service that names it.
pc build ${ENCLAVE_SMOKE_NO_CACHE:+--no-cache} etcd1 pg1 redis1 haproxy web1 >"$work/build.log" 2>&1 || true # exits 0 on failures
grep -q "^Error" "$work/build.log" && { grep -B20 "^Error" "$work/build.log" | tail -40; exit 1; }
figure "images built in $((SECONDS - start)) s: $(podman image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' \
  | grep -E 'enclave(-etcd|-patroni|-redis|-haproxy)?:' | tr '\n' ' ')"

log "starting three etcd, three Patroni members, three Redis, three Sentinels and the simulator"
start=$SECONDS
pc up -d "${engines[@]}" vcsim >"$work/up.log" 2>&1 || { cat "$work/up.log"; exit 1; }
wait_until 300 "Patroni: a leader and a synchronous standby" patroni_ready
log "Patroni: leader $(members leader), synchronous standby $(members sync_standby) after $waited s"
wait_until 120 "the Sentinels: a master and two replicas" sentinels_see 2
log "Sentinel: master $(redis_master), two replicas up, seen by all three Sentinels"
wait_until 120 "the simulator" podman exec "$(ctr vcsim)" test -s /run/secrets/vcsim.json

log "dbroles (on the leader), migrate, demo data, the simulator as the site's vCenter"
job() { local log=$1; shift; pc run --rm --no-deps "$@" >"$work/$log.log" 2>&1 || { tail -30 "$work/$log.log"; exit 1; }; }
job dbroles dbroles
job migrate migrate
job seed web1 python manage.py seed_demo
job register web1 sh -c 'python manage.py seed_network_demo && python manage.py vsphere_register_sim /run/secrets/vcsim.json'
logins="$(seed_logins)"
[ -n "$logins" ] || { log "seed_demo printed no logins"; cat "$work/seed.log"; exit 1; }

log "starting two web, two worker and two beat replicas and HAProxy"
pc up -d "${roles[@]}" haproxy >"$work/up2.log" 2>&1 || { cat "$work/up2.log"; exit 1; }
base="http://$(podman port "$(ctr haproxy)" 8000 | head -1)"
wait_until 300 "every replica healthy" healthy "${engines[@]}" "${roles[@]}"
wait_until 60 "HAProxy" through_haproxy
figure "stack healthy $((SECONDS - start)) s after the first container started (HAProxy at $base)"
holder="$(beat_holder beat1 beat2)" || { log "no beat holds the lease"; exit 1; }
claims="$(lease_claims)"
[ "$claims" = 1 ] || { log "$claims beat lease acquisitions, not one"; exit 1; }
log "beat: $holder holds the lease, the other waits"

smoke_round smoke
wait_until 10 "both web replicas served through HAProxy" haproxy_served_both
log "HAProxy: web1 and web2 up, both served requests"
acked=("$(cat "$work/smoke.id")")

log "FAULT: SIGKILL of the Patroni leader $(members leader) (it stays down), under a probe of /healthz"
old="$(members leader)"
probe 60 >"$work/pg-probe.txt" &
prober=$!
sleep 3
t0=$SECONDS
podman kill "$(ctr "$old")" >/dev/null
wait_until 120 "a new Patroni leader" leader_is_not "$old"
figure "PostgreSQL failover: $(members leader) leads $((SECONDS - t0)) s after the kill"
wait_until 120 "/healthz through HAProxy" through_haproxy
figure "PostgreSQL failover: /healthz 200 through HAProxy $((SECONDS - t0)) s after the kill"
wait "$prober"
figure "PostgreSQL failover: $(cat "$work/pg-probe.txt") (failed/total /healthz through HAProxy every 0.2 s for 60 s)"
smoke_round smoke-pg --still-ready "${acked[0]}"
acked+=("$(cat "$work/smoke-pg.id")")
log "the former leader $old started again: it must rejoin as a standby"
podman start "$(ctr "$old")" >/dev/null 2>>"$work/up.log" # podman: no systemd for health timers
wait_until 180 "$old streaming again" rejoined "$old"
figure "PostgreSQL: $old back as a $(patroni | python3 -c 'import json, sys
print(next(m["role"] for m in json.load(sys.stdin)["members"] if m["name"] == sys.argv[1]))' "$old") $waited s after its start"

old="$(redis_master)"
log "FAULT: SIGKILL of the Redis master $old (it stays down), under a probe of /healthz"
probe 30 >"$work/redis-probe.txt" &
prober=$!
sleep 3
t0=$SECONDS
podman kill "$(ctr "$old")" >/dev/null
wait_until 120 "a new Redis master" master_is_not "$old" 1
figure "Redis failover: $(redis_master) is master $((SECONDS - t0)) s after the kill"
wait_until 120 "/healthz through HAProxy" through_haproxy
figure "Redis failover: /healthz 200 through HAProxy $((SECONDS - t0)) s after the kill"
wait "$prober"
figure "Redis failover: $(cat "$work/redis-probe.txt") (failed/total /healthz through HAProxy every 0.2 s for 30 s)"
smoke_round smoke-redis --still-ready "${acked[0]}" --still-ready "${acked[1]}"
acked+=("$(cat "$work/smoke-redis.id")")
podman start "$(ctr "$old")" >/dev/null 2>>"$work/up.log" # podman: no systemd for health timers
wait_until 120 "$old back as a replica" sentinels_see 2
log "Redis: $old back as a replica of $(redis_master) after $waited s"

old="$(beat_holder beat1 beat2)"
other=beat1
[ "$old" = beat1 ] && other=beat2
log "FAULT: SIGKILL of the beat lease holder $old"
t0=$SECONDS
podman kill "$(ctr "$old")" >/dev/null
wait_until 120 "$other holding the beat lease" holder_is "$other"
figure "beat: $other took the lease over $((SECONDS - t0)) s after the kill"
smoke_round smoke-beat --still-ready "${acked[0]}" --still-ready "${acked[1]}" --still-ready "${acked[2]}"
acked+=("$(cat "$work/smoke-beat.id")")

log "FAULT: SIGKILL of the web replica web2 under a probe of /healthz through HAProxy every 0.2 s"
probe 20 >"$work/web-probe.txt" &
prober=$!
sleep 5
podman kill "$(ctr web2)" >/dev/null
wait "$prober"
figure "web replica SIGKILLed: $(cat "$work/web-probe.txt") (failed/total /healthz through HAProxy in 20 s)"
[ "$(cut -d/ -f1 "$work/web-probe.txt")" = 0 ] || { log "requests failed while a web replica died"; exit 1; }
# The demo tenant's quota allows four clusters: this round logs in and reads them, it requests none.
python3 deploy/smoke.py --base "$base" --logins "$logins" --no-request $(printf -- '--still-ready %s ' "${acked[@]}") \
  | tee "$work/smoke-web.log" || { log "deploy/smoke.py failed (smoke-web)"; exit 1; }
figure "clusters acknowledged and still Ready after four faults: ${acked[*]}"
figure "the whole run until here: $SECONDS s"
log "OK"
