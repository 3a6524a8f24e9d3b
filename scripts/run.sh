#!/usr/bin/env bash
# Start web, Celery worker and Celery beat (and the vCenter simulator when present); Ctrl-C stops all.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
mkdir -p "$ENCLAVE_DATA_DIR/logs" "$ENCLAVE_DATA_DIR/mail"
export ENCLAVE_EMAIL_BACKEND="${ENCLAVE_EMAIL_BACKEND:-django.core.mail.backends.filebased.EmailBackend}"
# Loopback, plus the veth address through which the demo node reaches the portal.
export ENCLAVE_ALLOWED_HOSTS="${ENCLAVE_ALLOWED_HOSTS:-localhost,127.0.0.1,[::1],10.99.0.1}"
pids=()
cleanups=()
stop_all() {
  trap - INT TERM EXIT
  echo; echo "run: stopping…"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  for cmd in "${cleanups[@]}"; do $cmd 2>/dev/null || true; done
  bash scripts/services.sh stop
  echo "run: stopped (data kept in $ENCLAVE_DATA_DIR)"
  exit 0
}
trap stop_all INT TERM EXIT

python manage.py seed_demo >"$ENCLAVE_DATA_DIR/logs/seed.log"
python manage.py seed_network_demo >>"$ENCLAVE_DATA_DIR/logs/seed.log"
python manage.py seed_demo_catalog >>"$ENCLAVE_DATA_DIR/logs/seed.log"

celery -A portal worker --loglevel=INFO --concurrency=2 >"$ENCLAVE_DATA_DIR/logs/worker.log" 2>&1 & pids+=($!)
# Webhook deliveries on their own worker (portal/settings.py WEBHOOK_QUEUE): a slow receiver holds only it.
celery -A portal worker -Q webhooks -n webhooks@%h --loglevel=INFO --concurrency=2 \
  >"$ENCLAVE_DATA_DIR/logs/webhook-worker.log" 2>&1 & pids+=($!)
celery -A portal beat --loglevel=INFO >"$ENCLAVE_DATA_DIR/logs/beat.log" 2>&1 & pids+=($!)
python manage.py runserver "127.0.0.1:$PORT" --noreload >"$ENCLAVE_DATA_DIR/logs/web.log" 2>&1 & pids+=($!)

for hook in scripts/run.d/*.sh; do
  [ -e "$hook" ] && source "$hook"   # components of the demo site: the vCenter simulator, a demo node
done

echo
echo "Enclave is starting at http://127.0.0.1:$PORT/  (API docs: /api/docs/, health: /healthz)"
python manage.py seed_demo | sed 's/^/  /'
echo "  Logs: $ENCLAVE_DATA_DIR/logs/   E-mail: $ENCLAVE_DATA_DIR/mail/   Stop: Ctrl-C"
wait -n "${pids[@]}" || true
echo "run: a component exited; see $ENCLAVE_DATA_DIR/logs/"
