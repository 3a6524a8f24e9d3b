# Sourced by scripts/run.sh: enrol one demo node (scripts/demo-node.sh: enclave-agent in a network
# namespace) into the pool "demo-rack". Where this machine's kernel has VRF the node runs here;
# where it lacks VRF (the agent would report the node NotReady) it runs inside the VRF guest (QEMU
# with the pinned Debian kernel, scripts/vrf-guest/guest.py serve), whose user-mode network reaches
# nothing but the portal's port (at 10.0.2.100 in the guest). Needs root and socat; skipped otherwise.
demo_agent="$(command -v enclave-agent)"
demo_portal="http://127.0.0.1:$PORT"
if [ "$(id -u)" -ne 0 ] || ! command -v socat >/dev/null; then
  echo "demo node: skipped (needs root and socat)"
else
  for _ in $(seq 100); do curl -s -o /dev/null "$demo_portal/healthz" && break; sleep 0.2; done
  if unshare -n "$demo_agent" capabilities >/dev/null 2>&1; then
    demo_where="here (this kernel has VRF)"
    demo_state="$ENCLAVE_DATA_DIR/demo-node" demo_cred="$ENCLAVE_DATA_DIR/demo-node/credential.json"
  else
    demo_where="in the VRF guest (this kernel lacks VRF; QEMU/TCG, Ready in about 1.5 minutes)"
    demo_job="$ENCLAVE_DATA_DIR/demo-guest"  # the guest's writable /tmp/job, kept across runs
    demo_state=/tmp/job/state demo_cred="$demo_job/state/credential.json"
  fi
  demo_token=""
  if ! grep -qs "\"server\": \"$demo_portal\"" "$demo_cred"; then
    demo_token="$(python manage.py join_token demo-rack --node demo-node-1)"
  fi
  demo_cmd="sh $PWD/scripts/demo-node.sh $demo_agent"
  if [ -z "${demo_job:-}" ]; then
    $demo_cmd 127.0.0.1 "$PORT" "$demo_state" $demo_token >>"$ENCLAVE_DATA_DIR/logs/demo-node.log" 2>&1 &
  else
    mkdir -p "$demo_job" && chmod 700 "$demo_job"
    python scripts/vrf-guest/guest.py serve --forward "$PORT" --job-dir "$demo_job" \
      -c "$demo_cmd 10.0.2.100 $PORT $demo_state $demo_token" >>"$ENCLAVE_DATA_DIR/logs/demo-node.log" 2>&1 &
  fi
  pids+=($!)
  echo "demo node: demo-node-1 (namespace enc-demo-n1) joins pool demo-rack $demo_where; see /nodes/"
fi
