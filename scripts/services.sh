#!/usr/bin/env bash
# Start or stop the local PostgreSQL cluster and Redis under $ENCLAVE_DATA_DIR.
# usage: services.sh start|stop|status
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
PGDATA="$ENCLAVE_DATA_DIR/pg"
PGBIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)"
REDIS_DIR="$ENCLAVE_DATA_DIR/redis"

as_pg() {
  # PostgreSQL refuses to run as root; use the Debian 'postgres' account then.
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_start() {
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    mkdir -p "$PGDATA"
    [ -f "$ENCLAVE_DATA_DIR/pg_password" ] || (umask 077; head -c 24 /dev/urandom | base64 | tr -d '/+=' > "$ENCLAVE_DATA_DIR/pg_password")
    [ "$(id -u)" -ne 0 ] || chown postgres: "$PGDATA"
    chmod 700 "$PGDATA"
    # UTF-8 whatever the caller's locale: a shell without LANG would make an SQL_ASCII cluster, which refuses
    # to convert the UTF-8 text the portal stores (audit diffs, webhook URLs) once it leaves ASCII.
    as_pg "$PGBIN/initdb" -D "$PGDATA" -U postgres --encoding=UTF8 --locale=C.UTF-8 \
      --auth-local=peer --auth-host=scram-sha-256 >/dev/null
    echo "services: initialised PostgreSQL in $PGDATA"
  fi
  if ! as_pg "$PGBIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1; then
    # 300 connections, not PostgreSQL's 100: the suite's race tests open one per thread (up to 60) and two
    # xdist workers may run two of them beside live servers and Celery workers at the same moment.
    as_pg "$PGBIN/pg_ctl" -D "$PGDATA" -l "$PGDATA/server.log" -w -t 60 start \
      -o "-c listen_addresses=127.0.0.1 -p $ENCLAVE_DB_PORT -k $PGDATA -c fsync=${ENCLAVE_PG_FSYNC:-on} \
          -c max_connections=${ENCLAVE_PG_MAX_CONNECTIONS:-300}" >/dev/null
    echo "services: PostgreSQL on 127.0.0.1:$ENCLAVE_DB_PORT"
  fi
  ensure_roles
}

ensure_roles() {
  # Two roles (scripts/db-roles.sql): the owner runs migrations; the app role cannot rewrite the audit log.
  local pw
  for pw in pg_password pg_app_password; do
    [ -s "$ENCLAVE_DATA_DIR/$pw" ] || (umask 077; head -c 24 /dev/urandom | base64 | tr -d '/+=' > "$ENCLAVE_DATA_DIR/$pw")
  done
  as_pg "$PGBIN/psql" -h "$PGDATA" -p "$ENCLAVE_DB_PORT" -U postgres -d postgres -qtA -v ON_ERROR_STOP=1 \
    -v owner="$ENCLAVE_DB_OWNER_USER" -v owner_password="$(cat "$ENCLAVE_DATA_DIR/pg_password")" \
    -v app="$ENCLAVE_DB_USER" -v app_password="$(cat "$ENCLAVE_DATA_DIR/pg_app_password")" \
    -v dbname="$ENCLAVE_DB_NAME" -v owner_createdb=CREATEDB <scripts/db-roles.sql >/dev/null
}

redis_start() {
  mkdir -p "$REDIS_DIR"
  if ! redis-cli -p "$ENCLAVE_REDIS_PORT" ping >/dev/null 2>&1; then
    redis-server --bind 127.0.0.1 --port "$ENCLAVE_REDIS_PORT" --dir "$REDIS_DIR" --daemonize yes \
      --pidfile "$REDIS_DIR/redis.pid" --logfile "$REDIS_DIR/redis.log" --save 60 1 >/dev/null
    for _ in $(seq 50); do redis-cli -p "$ENCLAVE_REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
    echo "services: Redis on 127.0.0.1:$ENCLAVE_REDIS_PORT"
  fi
}

stop() {
  redis-cli -p "$ENCLAVE_REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  [ -s "$PGDATA/PG_VERSION" ] && as_pg "$PGBIN/pg_ctl" -D "$PGDATA" -m fast stop >/dev/null 2>&1 || true
}

case "${1:-start}" in
  start) pg_start; redis_start ;;
  stop) stop ;;
  status) as_pg "$PGBIN/pg_ctl" -D "$PGDATA" status; redis-cli -p "$ENCLAVE_REDIS_PORT" ping ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
