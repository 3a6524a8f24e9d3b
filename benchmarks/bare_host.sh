#!/usr/bin/env bash
# site_scale.py on a bare x86-64 Linux host with no PostgreSQL, Redis, Python packages or network:
#   here:  bash benchmarks/bare_host.sh pack    -> .devbundle/bundle.tar.xz (~53 MB): Debian's PostgreSQL 15
#          and Redis, the virtualenv's Python with its standard library (tests and tools left out), the
#          run-time packages (requirements-prod.txt) and every library these link but glibc
#   there: bash benchmarks/bare_host.sh run CORES [site_scale.py options]    as root, from the checkout:
#          unpack into /opt/enclave and /usr/*/postgresql/15, start PostgreSQL pinned to CORES, run the
#          benchmark with --server-cpus CORES (web, workers, Redis there; agents and client elsewhere)
# The carried libraries reach only the carried programs (LD_LIBRARY_PATH in their environment).
set -euo pipefail
cd "$(dirname "$0")/.."
BUNDLE=.devbundle OPT=/opt/enclave PGBIN=/usr/lib/postgresql/15/bin DATA=/tmp/enclave-data
LIB=$OPT/lib:$OPT/python/lib

pack() {
  source scripts/env.sh
  local stage="$BUNDLE/stage" base ver
  base="$(python -c 'import sys; print(sys.base_prefix)')" ver="$(python -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  rm -rf "$BUNDLE" && mkdir -p "$stage$PGBIN" "$stage/usr/lib/postgresql/15/lib" "$stage/usr/share/postgresql" \
    "$stage$OPT"/{lib,bin,wrap,site,python/bin,python/lib}
  cp -a "$PGBIN"/{postgres,initdb,pg_ctl,psql} "$stage$PGBIN/"
  # no JIT (its LLVM alone is 100 MB): the benchmark's queries stay under jit_above_cost
  (cd /usr/lib/postgresql/15/lib && tar cf - --exclude=bitcode --exclude='llvmjit*' --exclude=pgxs .) |
    tar xf - -C "$stage/usr/lib/postgresql/15/lib"
  cp -a /usr/share/postgresql/15 "$stage/usr/share/postgresql/"
  # Debian's redis-server is a link to redis-check-rdb: the program picks its mode by its name
  cp /usr/bin/redis-check-rdb "$stage$OPT/bin/redis-server.real"
  cp "$(readlink -f /usr/bin/redis-cli)" "$stage$OPT/bin/redis-cli.real"
  cp -L "$base/bin/python$ver" "$stage$OPT/python/bin/python3" && cp -L "$base/lib/libpython$ver.so.1.0" "$stage$OPT/python/lib/"
  (cd "$base/lib" && tar cf - --exclude=site-packages --exclude=test --exclude=tests --exclude=idlelib \
    --exclude=tkinter --exclude=turtledemo --exclude=ensurepip --exclude=lib2to3 --exclude=__pycache__ \
    --exclude="config-$ver-*" "python$ver") | tar xf - -C "$stage$OPT/python/lib"
  grep -v -E '^#|^$|async-timeout' requirements-prod.txt >"$BUNDLE/requirements.txt"
  python -m pip wheel -q --no-deps -w "$BUNDLE/whl" -r "$BUNDLE/requirements.txt"
  python -c 'import sys, zipfile; [zipfile.ZipFile(w).extractall(sys.argv[1]) for w in sys.argv[2:]]' \
    "$stage$OPT/site" "$BUNDLE"/whl/*.whl
  find "$stage$OPT/site" -path '*/locale/*/LC_MESSAGES' -not -path '*/locale/en/*' -prune -exec rm -rf {} + # English only
  find "$stage$OPT/site" -name '*.so*' -type f | grep -v '\.libs/' |
    cat - <(ls "$PGBIN"/{postgres,initdb,pg_ctl,psql} /usr/bin/redis-check-rdb /usr/bin/redis-cli \
      "$base/bin/python$ver" "$base/lib/python$ver"/lib-dynload/*.so) \
      <(ls /usr/lib/postgresql/15/lib/*.so | grep -v llvmjit) | xargs -n1 ldd 2>/dev/null |
    awk '$3 ~ /^\// {print $3}' | grep -v -E "/(libc|libm|libpthread|libdl|librt|libresolv)\.so|libpython|$stage" |
    sort -u | xargs -I{} cp -L {} "$stage$OPT/lib/"
  tar cf - -C "$stage" . | xz -T0 -6 >"$BUNDLE/bundle.tar.xz" && rm -rf "$stage" "$BUNDLE/whl"
  du -sh "$BUNDLE/bundle.tar.xz"
}

wrap() { # name, program and arguments: a script that runs it with the carried libraries
  printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$LIB" "${*:2}" >"$OPT/wrap/$1" && chmod +x "$OPT/wrap/$1"
}

# in /tmp: PostgreSQL's programs stop when they cannot read their working directory
as_pg() { runuser -u postgres -- env -C /tmp LD_LIBRARY_PATH="$LIB" "$@"; }

run() {
  local cores="$1" data=$DATA
  shift
  # the host's Python unpacks: a bare host may lack xz; 2,000 agents' sockets need the limits the checkout has
  python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall("/")' "$BUNDLE/bundle.tar.xz"
  ulimit -n 20000
  [ "$(cat /proc/sys/net/core/somaxconn)" -ge 4096 ] || echo 4096 >/proc/sys/net/core/somaxconn
  wrap redis-server $OPT/bin/redis-server.real && wrap redis-cli $OPT/bin/redis-cli.real
  wrap python3 $OPT/python/bin/python3 && wrap gunicorn $OPT/python/bin/python3 -m gunicorn
  wrap celery $OPT/python/bin/python3 -m celery
  export ENCLAVE_DATA_DIR=$data
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  mkdir -p "$data/pg" && chown postgres: "$data/pg" && chmod 700 "$data/pg"
  for pw in pg_password pg_app_password; do (umask 077 && head -c 24 /dev/urandom | base64 | tr -d '/+=' >"$data/$pw"); done
  source scripts/env.sh
  export PYTHONPATH="$OPT/site:$PWD/agent" PATH="$OPT/wrap:$PATH"
  as_pg "$PGBIN/initdb" -D "$data/pg" -U postgres --auth-local=peer --auth-host=scram-sha-256 \
    --locale=C.UTF-8 >/dev/null
  as_pg taskset -c "$cores" "$PGBIN/pg_ctl" -D "$data/pg" -l "$data/pg/server.log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -p $ENCLAVE_DB_PORT -k $data/pg" >/dev/null
  trap 'as_pg "$PGBIN/pg_ctl" -D "$DATA/pg" -m fast stop >/dev/null 2>&1 || true' EXIT # "$DATA": after run()
  as_pg "$PGBIN/psql" -h "$data/pg" -p "$ENCLAVE_DB_PORT" -U postgres -d postgres -qtA -v ON_ERROR_STOP=1 \
    -v owner="$ENCLAVE_DB_OWNER_USER" -v owner_password="$ENCLAVE_DB_OWNER_PASSWORD" -v app="$ENCLAVE_DB_USER" \
    -v app_password="$ENCLAVE_DB_PASSWORD" -v dbname="$ENCLAVE_DB_NAME" -v owner_createdb=CREATEDB \
    <scripts/db-roles.sql >/dev/null
  "$OPT/wrap/python3" benchmarks/site_scale.py --server-cpus "$cores" "$@"
}

case "${1:-}" in
  pack) pack ;;
  run) shift && run "$@" ;;
  *) echo "usage: $0 pack | run CORES [site_scale.py options]" >&2 && exit 2 ;;
esac
