"""Three etcd members and three Patroni-managed PostgreSQL members (synchronous_mode: on) on localhost ports.

Three etcd, as the ha profile runs, with short Raft timers (heartbeat 100 ms, election 1 s) so a lost
member costs the DCS a second, not ten; Patroni is given all three. Three database members so that,
after the leader is killed, the promoted one still has a standby (the asynchronous negative control
runs on it). Short Patroni timeouts (ttl 6 s, loop_wait 1 s) so a failover takes seconds. PostgreSQL
refuses to run as root: as root, Patroni runs as the Debian 'postgres' account.
"""

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
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


def _get_json(url: str, timeout: float = 2) -> dict:
    with urllib.request.urlopen(url, timeout=timeout) as answer:
        return json.load(answer)


class PatroniCluster:
    """Three etcd + `size` Patroni members; `hosts()` is ENCLAVE_DB_HOSTS (libpq follows the leader)."""

    def __init__(self, ttl: int = 6, loop_wait: int = 1, retry_timeout: int = 2, size: int = 3):
        self.timeouts = {"ttl": ttl, "loop_wait": loop_wait, "retry_timeout": retry_timeout}
        self.dir, self.size = Path(tempfile.mkdtemp(prefix="enclave-patroni-")), size
        self.etcd, self.members = {}, {}  # etcd: name -> (process, client port); members: name -> (process, pg, rest)

    def start(self, synchronous: bool = True) -> "PatroniCluster":
        if AS_PG:
            shutil.chown(self.dir, "postgres")
        self._start_etcd()
        names = [f"pg{i + 1}" for i in range(self.size)]
        for name in names:
            pg, rest = free_port(), free_port()
            config = self.dir / f"{name}.json"  # JSON is YAML
            config.write_text(json.dumps(self._config(name, pg, rest, synchronous)))
            self.members[name] = (self._spawn([*AS_PG, "patroni", str(config)], name, own_group=True), pg, rest)
            if name == "pg1":  # the others clone the first once it leads
                assert wait_for(lambda: self.leader(), 120), self.log("pg1")
        roles = ["leader", "sync_standby" if synchronous else "replica"] + ["replica"] * (self.size - 2)
        ready = lambda: sorted(m["role"] for m in self.cluster()) == sorted(roles) and self._streaming()  # noqa: E731
        assert wait_for(ready, 180), self.log(names[-1])
        return self

    def _start_etcd(self) -> None:
        """Three etcd members at once (each waits for a quorum to form)."""
        peers = {f"e{i + 1}": (free_port(), free_port()) for i in range(3)}
        initial = ",".join(f"{name}=http://127.0.0.1:{peer}" for name, (_, peer) in peers.items())
        for name, (client, peer) in peers.items():
            cmd = ["etcd", "--name", name, "--data-dir", str(self.dir / name), "--enable-v2=true",
                   "--heartbeat-interval", "100", "--election-timeout", "1000",
                   "--listen-client-urls", f"http://127.0.0.1:{client}",
                   "--advertise-client-urls", f"http://127.0.0.1:{client}",
                   "--listen-peer-urls", f"http://127.0.0.1:{peer}",
                   "--initial-advertise-peer-urls", f"http://127.0.0.1:{peer}",
                   "--initial-cluster", initial, "--initial-cluster-state", "new"]  # fmt: skip
            self.etcd[name] = (self._spawn(cmd, name), client)

    def etcd_leader(self) -> str | None:
        """The etcd member that leads the Raft group now (its v2 stats say so)."""
        for name, (proc, client) in self.etcd.items():
            with contextlib.suppress(OSError, ValueError):
                stats = _get_json(f"http://127.0.0.1:{client}/v2/stats/self") if proc.poll() is None else {}
                if stats.get("state") == "StateLeader":
                    return name
        return None

    def kill_etcd_follower(self) -> str:
        """SIGKILL an etcd member that does not lead (no Raft election: Patroni's client moves on); its name."""
        leader = wait_for(self.etcd_leader, 30)
        name = next(n for n, (proc, _) in self.etcd.items() if n != leader and proc.poll() is None)
        proc = self.etcd[name][0]
        proc.kill()
        proc.wait(timeout=10)
        return name

    def _config(self, name, pg, rest, synchronous) -> dict:
        local = "127.0.0.1/32"
        return {
            "scope": "enclave-test", "name": name,
            "restapi": {"listen": f"127.0.0.1:{rest}", "connect_address": f"127.0.0.1:{rest}"},
            "etcd": {"hosts": [f"127.0.0.1:{client}" for _, client in self.etcd.values()]},
            "bootstrap": {
                "dcs": {**self.timeouts, "synchronous_mode": synchronous, "maximum_lag_on_failover": 1 << 30,
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
                # A member left ahead of the promoted one (it had WAL the new leader lacks) rewinds to follow it.
                "use_pg_rewind": True, "remove_data_directory_on_rewind_failure": True,
                "remove_data_directory_on_diverged_timelines": True,
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
        for proc, _, rest in self.members.values():
            if proc.poll() is None:
                with contextlib.suppress(OSError, ValueError):
                    return _get_json(f"http://127.0.0.1:{rest}/cluster")["members"]
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

    def set_synchronous(self, on: bool) -> None:
        """Switch synchronous_mode in the DCS (Patroni's PATCH /config) and wait until every member applies it."""
        rest = self.members[self.leader()][2]
        body = json.dumps({"synchronous_mode": on}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{rest}/config", data=body, method="PATCH")
        urllib.request.urlopen(request, timeout=5).close()
        standby = "sync_standby" if on else "replica"
        applied = lambda: standby in {m["role"] for m in self.cluster()} and self._streaming()  # noqa: E731
        assert wait_for(lambda: applied() and (self.psql("SHOW synchronous_standby_names") != "") == on, 60)

    def psql(self, sql: str) -> str:
        """One statement on the leader as the superuser; its output (unaligned, tuples only)."""
        port = self.members[self.leader()][1]
        cmd = [str(PGBIN / "psql"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-d", "postgres",
               "-qtAc", sql]  # fmt: skip
        env = {"PATH": "/usr/bin:/bin", "PGPASSWORD": PASSWORD}
        return subprocess.run(cmd, env=env, check=True, capture_output=True, text=True, timeout=20).stdout.strip()

    def replayed(self) -> bool:
        """Every standby has replayed all the WAL the leader has written."""
        sql = "SELECT count(*) > 0 AND bool_and(replay_lsn = pg_current_wal_lsn()) FROM pg_stat_replication"
        return self.psql(sql) == "t"

    def pause_replication(self) -> list[int]:
        """SIGSTOP the leader's WAL senders: no later commit can reach a standby; their pids."""
        pids = [int(pid) for pid in self.psql("SELECT pid FROM pg_stat_replication").split()]
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
        return pids

    def stop(self) -> None:
        for proc, _, _ in self.members.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        for data in self.dir.glob("pg*/postmaster.pid"):
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(data.read_text().split()[0]), signal.SIGKILL)
        for proc, _ in self.etcd.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


ROLES = {"owner": "enclave_owner", "app": "enclave_app", "dbname": "enclave"}


def portal_env(cluster: PatroniCluster, root: Path) -> dict:
    """The portal's environment on `cluster`: roles made by scripts/db-roles.sql, then `manage.py migrate`."""
    leader_port = cluster.members[cluster.leader()][1]
    variables = [f"--set={k}={v}" for k, v in ROLES.items()]
    variables += [f"--set=owner_password={PASSWORD}", f"--set=app_password={PASSWORD}", "--set=owner_createdb=CREATEDB"]
    subprocess.run([str(PGBIN / "psql"), "-h", "127.0.0.1", "-p", str(leader_port), "-U", "postgres", "-d", "postgres",
                    "-qtA", "-f", "scripts/db-roles.sql", *variables], cwd=root, check=True, capture_output=True,
                   env=dict(os.environ, PGPASSWORD=PASSWORD))  # fmt: skip
    env = dict(os.environ, ENCLAVE_DB_HOSTS=cluster.hosts(), ENCLAVE_DB_NAME=ROLES["dbname"],
               ENCLAVE_DB_USER=ROLES["app"], ENCLAVE_DB_PASSWORD=PASSWORD, ENCLAVE_DB_OWNER_USER=ROLES["owner"],
               ENCLAVE_DB_OWNER_PASSWORD=PASSWORD, DJANGO_SETTINGS_MODULE="portal.settings")  # fmt: skip
    env.pop("ENCLAVE_DB_HOST", None), env.pop("ENCLAVE_DB_PORT", None)
    migrate = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=root, env=env,
                             capture_output=True, text=True)  # fmt: skip
    if migrate.returncode != 0:
        raise RuntimeError(f"migrate on the Patroni cluster failed: {migrate.stderr[-3000:]}")
    return env
