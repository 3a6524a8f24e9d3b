"""Benchmark: a real site's size (10,000 tenants, 2,000 nodes) served by the production configuration.

Run: source scripts/env.sh && python benchmarks/site_scale.py [--tenants 10000 --nodes 2000 --pools 10]
     [--baseline 9e7d1a1] [--skip-baseline] [--server-cpus 0-3]
     On a host without PostgreSQL, Redis or the packages: benchmarks/bare_host.sh (pack here, run there).

In throwaway databases of the checkout's PostgreSQL and its own Redis (both on 127.0.0.1), it seeds
the site (benchmarks/site_scale_seed.py), compiles the nodes' desired state, starts two web
replicas (gunicorn -c portal/gunicorn_conf.py, one process each) and two Celery workers, parks
one agent per node in a long-poll (the agent's own client, enclave_agent.client; no kernel), and
measures with real HTTP: every list endpoint and main page as a site admin and as a tenant owner,
desired-state GETs, the propagation of a one-tenant rule change, peak memory and database size.
The baseline is the same seeding served by the compile-per-request code of --baseline (checked
out with `git archive` into a temporary directory), bounded in time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import site_scale_http as web  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PHASES = {"lists", "desired", "propagation"}
BASELINE = "9e7d1a1"  # main before issue 9: compile per desired-state request
SERVER_CPUS: set[int] = set()  # --server-cpus: web, workers and Redis run here; the rest elsewhere
TIMING_LOG = False  # --timing-log: each web process logs every request's time in the server


def cpu_list(text: str) -> set[int]:
    """'0-3,8' -> {0, 1, 2, 3, 8}, all of them cores of this machine."""
    try:
        cpus = {n for part in text.split(",") for n in _cpu_range(part)}
    except ValueError:
        raise argparse.ArgumentTypeError("a list of cores such as 0-3 or 0,2,4") from None
    if not cpus or not cpus < os.sched_getaffinity(0):
        raise argparse.ArgumentTypeError(f"{text}: some, not all, of the cores {sorted(os.sched_getaffinity(0))}")
    return cpus


def _cpu_range(part: str) -> range:
    low, _, high = part.partition("-")
    return range(int(low), int(high or low) + 1)


def _on_server_cpus() -> None:
    """A server process's start (preexec_fn): pinned to the server's cores when --server-cpus is given."""
    if SERVER_CPUS:
        os.sched_setaffinity(0, SERVER_CPUS)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Site:
    """One code base (this checkout or the baseline) on its own database, Redis and processes."""

    def __init__(self, code: Path, name: str, redis_port: int, pool_size: int):
        self.code, self.name, self.procs = code, name, []
        self.env = dict(os.environ, ENCLAVE_DB_NAME=name, ENCLAVE_REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
                        ENCLAVE_DEBUG="0", ENCLAVE_ALLOWED_HOSTS="127.0.0.1,localhost", PYTHONUNBUFFERED="1",
                        ENCLAVE_EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
                        ENCLAVE_DB_POOL_SIZE=str(pool_size), DJANGO_SETTINGS_MODULE="portal.settings",
                        # Every agent and the measuring users come from 127.0.0.1: per-address and
                        # per-user API throttles would measure themselves, not the site.
                        ENCLAVE_API_RATE_USER="1000000/minute", ENCLAVE_API_RATE_ANON="1000000/minute",
                        # every node parks a long-poll, as docker-compose.yml configures a site of this size
                        ENCLAVE_AGENT_LONGPOLL_MAX="4000")  # fmt: skip
        self.logs = Path(tempfile.mkdtemp(prefix=f"sitescale-{name}-"))
        self.ports: list[int] = []

    def run(self, *argv, timeout=None) -> str:
        result = subprocess.run(argv, cwd=self.code, env=self.env, capture_output=True, text=True, timeout=timeout)
        if result.returncode:
            raise RuntimeError(f"{argv}: {result.stderr[-3000:]}")
        return result.stdout

    def python(self, code: str, timeout=None) -> str:
        return self.run(sys.executable, "-c", "import django; django.setup()\n" + code, timeout=timeout)

    def create(self) -> None:
        self.drop()
        self.owner_sql(f"CREATE DATABASE {self.name}", database="postgres")

    def drop(self) -> None:
        self.owner_sql(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)", database="postgres")

    def owner_sql(self, sql: str, database: str | None = None) -> None:
        """As the schema owner (portal.dbroles): the app role may not create, drop or vacuum."""
        env = dict(self.env, ENCLAVE_DB_NAME=database or self.name, ENCLAVE_DB_POOL_SIZE="0",
                   ENCLAVE_DB_USER=os.environ.get("ENCLAVE_DB_OWNER_USER", os.environ.get("ENCLAVE_DB_USER", "")),
                   ENCLAVE_DB_PASSWORD=os.environ.get("ENCLAVE_DB_OWNER_PASSWORD",
                                                      os.environ.get("ENCLAVE_DB_PASSWORD", "")))  # fmt: skip
        subprocess.run([sys.executable, "-c", "import django; django.setup(); from django.db import connection\n"
                        f"connection.cursor().execute({sql!r})"], cwd=self.code, env=env, check=True)  # fmt: skip

    def start(self, webs=2, workers=2) -> None:
        conf = self.code / "portal" / "gunicorn_conf.py"
        if TIMING_LOG:  # the same configuration, logging each request's time in the server
            conf = ROOT / "benchmarks" / "gunicorn_timing.py"
        for n in range(webs):
            port = free_port()
            env = dict(self.env, ENCLAVE_BIND=f"127.0.0.1:{port}", ENCLAVE_WEB_WORKERS="1",
                       SITE_SCALE_TIMING_LOG=str(self.logs / f"web{n}.timing"))  # fmt: skip
            self._spawn(f"web{n}", ["gunicorn", "-c", str(conf), "portal.wsgi:application"], env)
            self.ports.append(port)
        for n in range(workers):
            argv = ["celery", "-A", "portal", "worker", "--concurrency=1", "--loglevel=WARNING", "--without-gossip",
                    "--without-mingle", "-n", f"bench{n}@%h"]  # fmt: skip
            self._spawn(f"worker{n}", argv, self.env)
        for port in self.ports:
            web.wait_until_up(port)

    def _spawn(self, label, argv, env) -> None:
        log = open(self.logs / f"{label}.log", "wb")  # noqa: SIM115 - closed with the process group
        proc = subprocess.Popen(argv, cwd=self.code, env=env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True, preexec_fn=_on_server_cpus)  # fmt: skip
        proc.label = label
        self.procs.append(proc)

    def peak_memory_mb(self) -> dict:
        """Peak RSS (VmHWM) of each process group: web replicas and workers, children included."""
        peaks = {}
        for proc in self.procs:
            pids = [proc.pid] + _children(proc.pid)
            peaks[proc.label] = sum(_hwm_kb(pid) for pid in pids) / 1024
        return peaks

    def stop(self) -> None:
        for proc in self.procs:
            try:
                os.killpg(proc.pid, 15)
            except ProcessLookupError:
                continue
        for proc in self.procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
        self.procs = []


def _children(pid: int) -> list[int]:
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return [int(k) for k in kids] + [g for k in kids for g in _children(int(k))]


def _hwm_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class Redis:
    """A throwaway redis-server on a free loopback port (enough clients for 2,000 subscribers)."""

    def __init__(self):
        self.port = free_port()
        self.proc = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
                                      "--appendonly", "no", "--maxclients", "10000"], stdout=subprocess.DEVNULL,
                                     start_new_session=True, preexec_fn=_on_server_cpus)  # fmt: skip
        time.sleep(0.5)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


def prepare(site: Site, args, compile_state: bool) -> dict:
    """Migrate, seed and (for this checkout) compile the stored desired state; timed."""
    site.create()
    site.run(sys.executable, "manage.py", "migrate", "--noinput", "-v0")
    seeded = json.loads(site.run(sys.executable, "benchmarks/site_scale_seed.py", "--tenants", str(args.tenants),
                                 "--nodes", str(args.nodes), "--pools", str(args.pools), "--events",
                                 str(args.events)).splitlines()[-1])  # fmt: skip
    site.owner_sql("VACUUM ANALYZE")
    if compile_state:
        start = time.perf_counter()
        out = site.python("import json; from agents import refresh; from agents.models import NodePool\n"
                          "result = refresh.refresh()  # every tenant's part, every pool's document\n"
                          "result['node_parts'] = sum(len(refresh.store_node_parts(p))\n"
                          "                           for p in NodePool.objects.all())\n"
                          "print(json.dumps(result))")  # fmt: skip
        seeded["compile_s"], seeded["compiled"] = time.perf_counter() - start, json.loads(out.splitlines()[-1])
    # Seeding through the services queued a compile per tenant (and site-wide ones) on commit: the
    # compile above covers them all, and workers chewing that backlog would be measured as load.
    seeded["purged"] = site.run("celery", "-A", "portal", "purge", "-f").strip()
    return seeded


def measure(site: Site, args, agents: int, bounded: float, result: dict, save, settle_limit: float = 600) -> dict:
    """Everything measured over HTTP against a started site, saved after every series (runs are long)."""
    admin, owner = web.Login(site.ports[0], "bench-admin"), web.Login(site.ports[0], "pi-0")
    # --agents-apart: web process 0 serves browsers and the API, the others the agents, as a reverse proxy
    # routing /api/v1/agents/ to their own replicas would
    agent_ports = site.ports[1:] if args.agents_apart else site.ports
    fleet = web.Fleet(agent_ports, args.nodes, agents, args.agent_wait)
    fleet.start(ramp_s=args.ramp)
    result["parked"] = fleet.wait_parked(timeout=args.ramp + 900)
    result["initial_get"] = fleet.initial_latencies()
    save()
    # Timing starts once every agent's first download is done and the machine has settled: the
    # measured state is 2,000 agents parked in their long-polls, renewing them every --agent-wait.
    result["quiet"] = {}
    for phase in args.phases.split(","):
        result["quiet"][phase] = web.quiet(fleet, args.settle, limit_s=settle_limit, cpus=SERVER_CPUS)
        if phase == "lists":
            result["lists"] = {}
            web.measure_lists(site.ports[0], admin, owner, args.requests, bounded, result["lists"], save)
        elif phase == "desired":
            result["desired"] = web.measure_desired(agent_ports, args.nodes, args.requests * 5, bounded)
        else:
            result["propagation"] = web.propagation(site, admin, fleet, args.pools, bounded)
        save()
    result["quiet"]["end"] = {"fleet_errors": fleet.error_count()}
    fleet.stop()
    result["memory_mb"] = site.peak_memory_mb()
    result["db_mb"] = float(site.python("from django.db import connection; c = connection.cursor(); "
                                        "c.execute('SELECT pg_database_size(current_database())'); "
                                        "print(c.fetchone()[0] / 1e6)").strip())  # fmt: skip
    return result


def baseline_code(commit: str) -> Path:
    """The baseline commit's tree in a temporary directory, with this benchmark's seeding added."""
    target = Path(tempfile.mkdtemp(prefix="sitescale-baseline-"))
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    shutil.copy(ROOT / "benchmarks" / "site_scale_seed.py", target / "benchmarks")
    shutil.copy(ROOT / "portal" / "gunicorn_conf.py", target / "portal")
    shutil.copy(ROOT / "portal" / "gunicorn_worker.py", target / "portal")  # the configuration's worker class
    return target


def run_one(code: Path, name: str, args, current: bool, result: dict, save) -> dict:
    redis = Redis()
    site = Site(code, name, redis.port, pool_size=40 if current else 0)
    result["logs"] = str(site.logs)
    if not current:  # the baseline predates the owner/app role split: it migrates and runs as the owner
        site.env |= {
            "ENCLAVE_DB_USER": os.environ.get("ENCLAVE_DB_OWNER_USER", "enclave"),
            "ENCLAVE_DB_PASSWORD": os.environ.get("ENCLAVE_DB_OWNER_PASSWORD", ""),
        }  # scripts/env.sh sets both
    try:
        result["seed"] = prepare(site, args, compile_state=current)
        save()
        site.start(webs=args.webs)
        # The baseline stays busy with requests the harness gave up on: it never settles.
        measure(site, args, args.nodes if current else args.baseline_agents,
                args.bounded if not current else 60.0, result, save, 600 if current else 30)  # fmt: skip
        return result
    finally:
        site.stop()
        redis.stop()
        if not args.keep:
            site.drop()


def _phases(text: str) -> str:
    names = text.split(",")
    if not names or set(names) - PHASES or len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"a comma-separated subset of {', '.join(sorted(PHASES))}")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tenants", type=int, default=10_000)
    parser.add_argument("--nodes", type=int, default=2_000)
    parser.add_argument("--pools", type=int, default=10)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=20, help="timed requests per list, role and page")
    parser.add_argument("--ramp", type=float, default=120.0, help="seconds over which the agents start")
    parser.add_argument("--agent-wait", type=int, default=30, help="seconds each agent's long-poll asks for")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds of CPU under 50%% busy before timing")
    parser.add_argument(
        "--phases",
        default="lists,desired,propagation",
        type=_phases,
        help="what to time, in this order (comma-separated; a subset skips the rest)",
    )
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--baseline-agents", type=int, default=0)
    parser.add_argument("--bounded", type=float, default=30.0, help="baseline: seconds before a request is given up")
    parser.add_argument("--skip-baseline", action="store_true")
    parser.add_argument("--baseline-only", action="store_true", help="add the baseline to an earlier --out file")
    parser.add_argument("--keep", action="store_true", help="keep the databases")
    parser.add_argument("--webs", type=int, default=2, help="web processes (replicas), one process each")
    parser.add_argument("--agents-apart", action="store_true",
                        help="web process 0 serves browsers and the API only, the others the agents")  # fmt: skip
    parser.add_argument("--timing-log", action="store_true",
                        help="web processes log each request's server time (gunicorn_timing.py)")  # fmt: skip
    parser.add_argument("--server-cpus", type=cpu_list, default=set(),
                        help="cores for web, workers and Redis (pin PostgreSQL to them yourself, e.g. taskset); "
                             "the agents and the measuring client get the others, as if on other machines")  # fmt: skip
    parser.add_argument("--out", default=str(ROOT / ".data" / "site_scale.json"))
    args = parser.parse_args()
    if args.agents_apart and args.webs < 2:
        parser.error("--agents-apart needs --webs 2 or more")
    results = {"args": vars(args), "machine": web.machine()}
    global TIMING_LOG
    TIMING_LOG = args.timing_log
    if args.server_cpus:
        SERVER_CPUS.update(args.server_cpus)
        os.sched_setaffinity(0, os.sched_getaffinity(0) - SERVER_CPUS)  # the fleet's processes fork from here
        results["machine"] += f"; server on cores {sorted(SERVER_CPUS)}, agents and client on the others"

    def save() -> None:  # a stopped run keeps every series measured so far
        Path(args.out).write_text(json.dumps(results, indent=1, default=str))

    if args.baseline_only:
        results = json.loads(Path(args.out).read_text()) | {"baseline_args": vars(args)}
    else:
        run_one(ROOT, f"bench_sitescale_{os.getpid()}", args, True, results.setdefault("current", {}), save)
    save()
    if not args.skip_baseline:
        code = baseline_code(args.baseline)
        try:
            run_one(code, f"bench_sitebase_{os.getpid()}", args, False, results.setdefault("baseline", {}), save)
        finally:
            shutil.rmtree(code, ignore_errors=True)
    save()
    web.report(results)


def _terminated(signum, frame):
    raise SystemExit(f"signal {signum}")  # run the finally blocks: stop servers, drop databases


if __name__ == "__main__":
    threading.stack_size(512 * 1024)  # 2,000 agent threads
    signal.signal(signal.SIGTERM, _terminated)
    main()
