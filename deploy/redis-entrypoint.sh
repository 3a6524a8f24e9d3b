#!/bin/sh
# `redis-server [options]` runs the server on all interfaces without protected mode (only the
# stack's private network reaches it); anything else (redis-cli for the health check) runs as is.
set -eu
if [ "${1:-}" = redis-server ]; then
  shift
  exec redis-server --bind "* -::*" --protected-mode no --dir /data "$@"
fi
exec "$@"
