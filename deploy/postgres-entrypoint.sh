#!/bin/sh
# Initialise PGDATA once (superuser POSTGRES_USER with POSTGRES_PASSWORD, database POSTGRES_DB,
# password logins over the network), then run the server as the postgres user.
set -eu
if [ "${1:-}" != postgres ]; then exec "$@"; fi  # psql, pg_isready, ... (the dbroles job)
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /run/postgresql
  chown postgres:postgres "$PGDATA" /run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set to initialise the database}"
  su_name="${POSTGRES_USER:-postgres}"
  db="${POSTGRES_DB:-$su_name}"
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb -D "$PGDATA" -U "$su_name" --pwfile="$pwfile" -E UTF8 --locale=C.UTF-8 \
    --auth-local=peer --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    printf 'CREATE DATABASE "%s" OWNER "%s";\n' "$db" "$su_name" | postgres --single -D "$PGDATA" postgres >/dev/null
  fi
  echo "postgres-entrypoint: initialised $PGDATA (superuser $su_name, database $db)"
fi
shift
exec postgres -D "$PGDATA" "$@"
