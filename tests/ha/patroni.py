"""One etcd member and two Patroni-managed PostgreSQL members (synchronous_mode: on) on localhost ports.

One etcd, not three, to stay cheap on two cores: the tests kill PostgreSQL hosts, not the DCS (the ha
compose profile runs three). Short Patroni timeouts (ttl 6 s, loop_wait 1 s) so a failover takes
seconds. PostgreSQL refuses to run as root: as root, Patroni runs as the Debian 'postgres' account.
"""

import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import urllib.request
from pathlib import Path

from tests.ha.sentinel import free_port, wait_for

PGBIN = sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1]
PASSWORD = "patroni-test"  # noqa: S105 - a throwaway cluster on loopback, deleted after the module
AS_PG = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []


def _children(parent: int) -> list[int]:
    """Processes whose parent is `parent` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == parent:
                found.append(int(stat.parent.name))
    return found


class PatroniCluster:
    """etcd + two Patroni members; `dsn()` is libpq's multi-host string that follows the leader."""

    def __init__(self, ttl: int = 6, loop_wait: int = 1, retry_timeout: int = 2):
        self.timeouts = {"ttl": ttl, "loop_wait": loop_wait, "retry_timeout": retry_timeout}
        self.dir = Path(tempfile.mkdtemp(prefix="enclave-patroni-"))
        self.etcd, self.members = None, {}  # name -> (process, pg port, rest port)

    def start(self, synchronous: bool = True) -> "PatroniCluster":
        if AS_PG:
            shutil.chown(self.dir, "postgres")
        client, peer = free_port(), free_port()
        self.etcd = self._spawn(["etcd", "--name", "e1", "--data-dir", str(self.dir / "etcd"), "--enable-v2=true",
                                 "--listen-client-urls", f"http://127.0.0.1:{client}",
                                 "--advertise-client-urls", f"http://127.0.0.1:{client}",
                                 "--listen-peer-urls", f"http://127.0.0.1:{peer}",
                                 "--initial-advertise-peer-urls", f"http://127.0.0.1:{peer}",
                                 "--initial-cluster", f"e1=http://127.0.0.1:{peer}"], "etcd")  # fmt: skip
        for name in ("pg1", "pg2"):
            pg, rest = free_port(), free_port()
            config = self.dir / f"{name}.json"  # JSON is YAML
            config.write_text(json.dumps(self._config(name, pg, rest, client, synchronous)))
            self.members[name] = (self._spawn([*AS_PG, "patroni", str(config)], name, own_group=True), pg, rest)
            if name == "pg1":  # the second member clones the first once it leads
                assert wait_for(lambda: self.leader(), 120), self.log("pg1")
        want = "sync_standby" if synchronous else "replica"
        ready = lambda: {m["role"] for m in self.cluster()} == {"leader", want} and self._streaming()  # noqa: E731
        assert wait_for(ready, 180), self.log("pg2")
        return self

    def _config(self, name, pg, rest, etcd, synchronous) -> dict:
        local = "127.0.0.1/32"
        return {
            "scope": "enclave-test", "name": name,
            "restapi": {"listen": f"127.0.0.1:{rest}", "connect_address": f"127.0.0.1:{rest}"},
            "etcd": {"host": f"127.0.0.1:{etcd}"},
            "bootstrap": {
                "dcs": {**self.timeouts, "synchronous_mode": synchronous,
                        "postgresql": {"parameters": {"fsync": "off", "max_connections": 50}}},
                "initdb": [{"encoding": "UTF8"}, {"locale": "C.UTF-8"}],
                "pg_hba": [f"host replication replicator {local} scram-sha-256", f"host all all {local} scram-sha-256",
                           "local all all trust"],
            },
            "postgresql": {
                "listen": f"127.0.0.1:{pg}", "connect_address": f"127.0.0.1:{pg}",
                "data_dir": str(self.dir / name), "bin_dir": str(PGBIN), "pgpass": str(self.dir / f"{name}.pgpass"),
                "authentication": {"superuser": {"username": "postgres", "password": PASSWORD},
                                   "replication": {"username": "replicator", "password": PASSWORD}},
                "parameters": {"unix_socket_directories": str(self.dir)},
            },
        }  # fmt: skip

    def _spawn(self, cmd, name, own_group=False) -> subprocess.Popen:
        env = {"PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": str(self.dir), "LANG": "C.UTF-8"}
        with open(self.dir / f"{name}.log", "wb") as log:
            return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=own_group)

    def log(self, name) -> str:
        return (self.dir / f"{name}.log").read_text()[-3000:]

    def cluster(self) -> list[dict]:
        """Patroni's view of the members (name, role, state) from any member that answers."""
        for _, _, rest in self.members.values():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{rest}/cluster", timeout=2) as answer:
                    return json.load(answer)["members"]
            except OSError:
                continue
        return []

    def _streaming(self) -> bool:
        return all(m["state"] in ("running", "streaming") for m in self.cluster())

    def leader(self) -> str | None:
        return next((m["name"] for m in self.cluster() if m["role"] == "leader" and m["state"] == "running"), None)

    def hosts(self) -> str:
        """ENCLAVE_DB_HOSTS's form: host:port of every member."""
        return ",".join(f"127.0.0.1:{pg}" for _, pg, _ in self.members.values())

    def kill_leader(self) -> str:
        """SIGKILL the leader's Patroni and PostgreSQL at once, like a lost host; its name."""
        name = self.leader()
        proc = self.members[name][0]
        postmaster = int((self.dir / name / "postmaster.pid").read_text().split()[0])
        # Backends outlive a killed postmaster for a moment and would still answer their clients.
        os.killpg(proc.pid, signal.SIGKILL)
        for pid in [postmaster, *_children(postmaster)]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        proc.wait(timeout=10)
        return name

    def stop(self) -> None:
        for proc, _, _ in self.members.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        for data in self.dir.glob("pg*/postmaster.pid"):
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(data.read_text().split()[0]), signal.SIGKILL)
        if self.etcd is not None and self.etcd.poll() is None:
            self.etcd.kill()
            self.etcd.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)
