"""Three redis-server (a master, two replicas) and three redis-sentinel processes on localhost ports.

Short timeouts (down after 1 s) so a failover takes seconds. Each process is a child of the test, so a
test can SIGKILL the master like a lost host.
"""

import socket
import subprocess
import time

import redis

MASTER = "enclave"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout: float, interval: float = 0.2):
    """Wait until predicate() is true (exceptions count as false) or the timeout passes; its last value."""
    deadline, value = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        try:
            value = predicate()
        except (redis.RedisError, OSError):
            value = None
        if value:
            return value
        time.sleep(interval)
    return value


class SentinelCluster:
    """The six processes; `master()` asks the Sentinels where the master is now."""

    def __init__(self, tmp, down_after_ms: int = 1000):
        self.tmp, self.servers, self.sentinels, self.down_after_ms = tmp, {}, {}, down_after_ms

    def start(self) -> "SentinelCluster":
        ports = [free_port() for _ in range(3)]
        for port in ports:
            extra = [] if port == ports[0] else ["--replicaof", "127.0.0.1", str(ports[0])]
            (self.tmp / str(port)).mkdir()  # a replica's full sync writes dump.rdb there: one directory each
            cmd = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                   "--dir", str(self.tmp / str(port)), "--repl-diskless-sync-delay", "0", *extra]  # fmt: skip
            self.servers[port] = self._spawn(cmd, f"redis-{port}")
        for _ in range(3):
            port = free_port()
            conf = self.tmp / f"sentinel-{port}.conf"
            conf.write_text(f"port {port}\nbind 127.0.0.1\ndir {self.tmp}\n"
                            f"sentinel monitor {MASTER} 127.0.0.1 {ports[0]} 2\n"
                            f"sentinel down-after-milliseconds {MASTER} {self.down_after_ms}\n"
                            f"sentinel failover-timeout {MASTER} 5000\n")  # fmt: skip
            self.sentinels[port] = self._spawn(["redis-sentinel", str(conf)], f"sentinel-{port}")

        # Sentinels learn the replicas from the master's INFO (every 10 s): one that knows none cannot fail over.
        def ready() -> bool:
            sentinels_know = all(self._peers(p) == 2 and self._known_replicas(p) == 2 for p in self.sentinels)
            return self._replicas(ports[0]) == 2 and sentinels_know

        assert wait_for(ready, 60), "the Redis Sentinel cluster did not come up"
        return self

    def _spawn(self, cmd, name) -> subprocess.Popen:
        with open(self.tmp / f"{name}.log", "wb") as log:
            return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)

    def _replicas(self, port) -> int:
        """Replicas whose first sync is done (a replica still waiting for it would be promoted empty)."""
        synced = [redis.Redis(port=p, socket_timeout=1).info("replication")["master_link_status"] == "up"
                  for p in self.servers if p != port]  # fmt: skip
        return sum(synced) if redis.Redis(port=port, socket_timeout=1).info("replication")["connected_slaves"] else 0

    def _known_replicas(self, port) -> int:
        return len(redis.Redis(port=port, socket_timeout=1).sentinel_slaves(MASTER))

    def _peers(self, port) -> int:
        return len(redis.Redis(port=port, socket_timeout=1).sentinel_sentinels(MASTER))

    @property
    def addresses(self) -> list[str]:
        """ENCLAVE_REDIS_SENTINELS's form: host:port strings."""
        return [f"127.0.0.1:{port}" for port in self.sentinels]

    def master(self) -> int:
        """The master's port as the first Sentinel that answers sees it."""
        for port in self.sentinels:
            try:
                return int(redis.Redis(port=port, socket_timeout=1).sentinel_get_master_addr_by_name(MASTER)[1])
            except redis.RedisError:
                continue
        raise redis.ConnectionError("no Sentinel answers")

    def kill_master(self) -> int:
        """SIGKILL the master (no shutdown, no last sync); its port."""
        port = self.master()
        self.servers[port].kill()
        self.servers[port].wait(timeout=10)
        return port

    def stop(self) -> None:
        for proc in [*self.sentinels.values(), *self.servers.values()]:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
