#!/bin/sh
# The demo node (scripts/run.d/50-demo-node.sh): a network namespace enc-demo-n1 whose em1 has
# 10.99.0.5/24 (pool demo-rack's subnet), with enclave-agent in it joined to the portal. Runs on
# this machine, or inside the VRF guest where this machine's kernel lacks VRF.
#   demo-node.sh AGENT UPSTREAM PORT STATE_DIR [JOIN_TOKEN]
# UPSTREAM: the address at which the portal (plain HTTP on PORT) is reachable from here.
# Stops (TERM/INT) by removing the namespace, its veth and the socat doors.
set -eu
agent=$1 upstream=$2 port=$3 state=$4 token=${5:-}
ns=enc-demo-n1
portal="http://127.0.0.1:$port"
pids=""
stop() {
  trap - EXIT INT TERM
  [ -n "$pids" ] && kill $pids 2>/dev/null
  ip netns del "$ns" 2>/dev/null
  ip link del encdemo0 2>/dev/null
  exit 0
}
ip netns del "$ns" 2>/dev/null || true
ip link del encdemo0 2>/dev/null || true
trap stop EXIT INT TERM
ip netns add "$ns"
ip link add encdemo0 type veth peer name em1 netns "$ns"
ip addr add 10.99.0.1/24 dev encdemo0
ip link set encdemo0 up
ip netns exec "$ns" sh -c 'ip addr add 10.99.0.5/24 dev em1 && ip link set em1 up && ip link set lo up &&
  ip route add default via 10.99.0.1'
# The portal listens on loopback only: expose it to the node on the veth address alone. The agent
# speaks plain http only to loopback (a real node uses https): give the node a loopback door to it.
socat "TCP-LISTEN:$port,bind=10.99.0.1,fork,reuseaddr" "TCP:$upstream:$port" &
pids="$pids $!"
ip netns exec "$ns" socat "TCP-LISTEN:$port,bind=127.0.0.1,fork,reuseaddr" "TCP:10.99.0.1:$port" &
pids="$pids $!"
if [ -n "$token" ]; then
  ip netns exec "$ns" "$agent" --state-dir "$state" join --server "$portal" --token "$token" \
    --hostname demo-node-1
fi
ip netns exec "$ns" "$agent" --state-dir "$state" run --wait 25 &
pids="$pids $!"
wait $!
