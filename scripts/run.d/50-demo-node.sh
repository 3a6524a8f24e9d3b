# Sourced by scripts/run.sh: enrol one demo node — enclave-agent in a network namespace on this
# machine — into the pool "demo-rack". Needs root (network namespaces); skipped otherwise.
DEMO_NS=enc-demo-n1
if [ "$(id -u)" -ne 0 ] || ! command -v socat >/dev/null; then
  echo "demo node: skipped (needs root and socat)"
else
  ip netns del "$DEMO_NS" 2>/dev/null || true
  ip link del encdemo0 2>/dev/null || true
  ip netns add "$DEMO_NS"
  ip link add encdemo0 type veth peer name em1 netns "$DEMO_NS"
  ip addr add 10.99.0.1/24 dev encdemo0 && ip link set encdemo0 up
  ip netns exec "$DEMO_NS" ip addr add 10.99.0.5/24 dev em1
  ip netns exec "$DEMO_NS" ip link set em1 up
  ip netns exec "$DEMO_NS" ip link set lo up
  ip netns exec "$DEMO_NS" ip route add default via 10.99.0.1
  cleanups+=("ip netns del $DEMO_NS" "ip link del encdemo0")
  # The portal listens on loopback only; expose it to the demo node on the veth address alone.
  socat "TCP-LISTEN:$PORT,bind=10.99.0.1,fork,reuseaddr" "TCP:127.0.0.1:$PORT" & pids+=($!)
  # The agent speaks plain http only to loopback (a real node uses https): give the node a
  # loopback door to that veth address inside its namespace.
  ip netns exec "$DEMO_NS" socat "TCP-LISTEN:$PORT,bind=127.0.0.1,fork,reuseaddr" "TCP:10.99.0.1:$PORT" & pids+=($!)
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.2; done
  state="$ENCLAVE_DATA_DIR/demo-node"
  portal="http://127.0.0.1:$PORT"
  if ! grep -qs "\"server\": \"$portal\"" "$state/credential.json"; then
    token="$(python manage.py join_token demo-rack --node demo-node-1)"
    ip netns exec "$DEMO_NS" enclave-agent --state-dir "$state" join --server "$portal" \
      --token "$token" --hostname demo-node-1 >"$ENCLAVE_DATA_DIR/logs/demo-node.log" 2>&1
  fi
  python manage.py node_interfaces demo-node-1 em1=10.99.0.5/24 >/dev/null
  ip netns exec "$DEMO_NS" enclave-agent --state-dir "$state" run --wait 25 >>"$ENCLAVE_DATA_DIR/logs/demo-node.log" 2>&1 & pids+=($!)
  echo "demo node: demo-node-1 (namespace $DEMO_NS) enrolled in pool demo-rack; see /nodes/"
fi
