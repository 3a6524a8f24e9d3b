#!/usr/bin/env bash
# Start web, Celery worker and Celery beat (and the vCenter simulator when present); Ctrl-C stops all.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
mkdir -p "$ENCLAVE_DATA_DIR/logs" "$ENCLAVE_DATA_DIR/mail"
export ENCLAVE_EMAIL_BACKEND="${ENCLAVE_EMAIL_BACKEND:-django.core.mail.backends.filebased.EmailBackend}"
pids=()
stop_all() {
  trap - INT TERM EXIT
  echo; echo "run: stopping…"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  bash scripts/services.sh stop
  echo "run: stopped (data kept in $ENCLAVE_DATA_DIR)"
  exit 0
}
trap stop_all INT TERM EXIT

for hook in scripts/run.d/*.sh; do
  [ -e "$hook" ] && source "$hook"   # optional components (simulator, demo node agent) add themselves here
done

celery -A portal worker --loglevel=INFO --concurrency=2 >"$ENCLAVE_DATA_DIR/logs/worker.log" 2>&1 & pids+=($!)
celery -A portal beat --loglevel=INFO >"$ENCLAVE_DATA_DIR/logs/beat.log" 2>&1 & pids+=($!)
python manage.py runserver "127.0.0.1:$PORT" --noreload >"$ENCLAVE_DATA_DIR/logs/web.log" 2>&1 & pids+=($!)

echo
echo "Enclave is starting at http://127.0.0.1:$PORT/  (API docs: /api/docs/, health: /healthz)"
python manage.py seed_demo | sed 's/^/  /'
echo "  Logs: $ENCLAVE_DATA_DIR/logs/   E-mail: $ENCLAVE_DATA_DIR/mail/   Stop: Ctrl-C"
wait -n "${pids[@]}" || true
echo "run: a component exited; see $ENCLAVE_DATA_DIR/logs/"
