"""HTTP side of benchmarks/site_scale.py: logins, the agent fleet, timed lists, propagation, report."""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import platform
import random
import re
import statistics
import threading
import time
import urllib.parse
import zlib

from enclave_agent.client import PortalClient, PortalError
from site_scale_seed import PASSWORD, api_token, node_credential

API_LISTS = ["tenants", "memberships", "quotas", "clusters", "audit-events", "tokens", "node-pools", "pool-subnets",
             "nodes", "join-tokens", "vcenters", "hosts", "physical-functions", "vf-assignments", "vsphere/capacity",
             "pools", "segments", "services", "groups", "firewall-policies", "firewall-rules"]  # fmt: skip
ADMIN_ONLY = {"node-pools", "pool-subnets", "nodes", "join-tokens", "vcenters", "hosts", "physical-functions",
              "vsphere/capacity", "/tenants/", "/nodes/", "/vsphere/", "/vsphere/vcenters/", "/vsphere/pfs/",
              "/network/pools/", "/network/firewall/services/"}  # fmt: skip
PAGES = ["/", "/clusters/", "/approvals/", "/audit/", "/audit/?q=lab-42", "/tokens/", "/tenants/", "/nodes/",
         "/vsphere/", "/vsphere/vcenters/", "/vsphere/pfs/", "/network/segments/", "/network/firewall/",
         "/network/pools/", "/network/firewall/services/"]  # fmt: skip


def machine() -> str:
    cpus = os.cpu_count()
    with open("/proc/cpuinfo") as info:
        model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), "?")
    load = os.getloadavg()
    return f"{cpus} cores ({model}), {platform.platform()}, load average at start {load[0]:.1f}"


def wait_until_up(port: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            status, _, _ = request(port, "GET", "/login/", timeout=5)
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"web on {port} did not come up")


def request(port, method, path, headers=None, body=None, timeout=60.0) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


class Login:
    """A session (pages) and an API token (REST) of one seeded user."""

    def __init__(self, port: int, username: str):
        _, headers, body = request(port, "GET", "/login/")
        csrf = _cookie(headers, "csrftoken")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1).decode()
        form = urllib.parse.urlencode({"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token})
        status, headers, _ = request(port, "POST", "/login/", {"Cookie": f"csrftoken={csrf}", "Referer": "http://127.0.0.1/",
                                     "Content-Type": "application/x-www-form-urlencoded"}, form)  # fmt: skip
        session = _cookie(headers, "sessionid")
        if status != 302 or not session:
            raise RuntimeError(f"login of {username} failed: {status}")
        self.username = username
        self.page_headers = {"Cookie": f"sessionid={session}; csrftoken={csrf}"}
        self.api_headers = {"Authorization": f"Bearer {api_token(username)}", "Accept": "application/json"}


def _cookie(headers: dict, name: str) -> str:
    for key, value in headers.items():
        if key.lower() == "set-cookie" and value.startswith(f"{name}="):
            return value.split(";", 1)[0].split("=", 1)[1]
    return ""


def percentiles(samples: list[float]) -> dict:
    if not samples:
        return {}
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"n": len(ordered), "p50": statistics.median(ordered), "p95": pick(0.95), "p99": pick(0.99),
            "max": ordered[-1]}  # fmt: skip


SLOW_S = 0.2  # the pages' goal: a sample over it is listed with its start time


def timed(port, path, headers, count, bounded) -> dict:
    """count requests after two warm-ups; a request over `bounded` seconds ends the series."""
    samples, statuses, slow = [], set(), []
    for n in range(count + 2):
        at, start = time.time(), time.perf_counter()
        try:
            status, _, _ = request(port, "GET", path, headers, timeout=bounded)
        except TimeoutError:
            return {"timeout": bounded, "done": max(0, n - 2)}
        if n >= 2:
            samples.append(time.perf_counter() - start)
            statuses.add(status)
            if samples[-1] > SLOW_S:  # when, to find it in the servers' timing logs
                slow.append([round(at, 4), round(samples[-1], 4)])
    # A refused request is fast and measures nothing: the report shows any status but 200 beside its times.
    return percentiles(samples) | {"status": sorted(statuses), "slow": slow}


def measure_lists(port, admin: Login, owner: Login, count: int, bounded: float, results: dict, save) -> dict:
    """Every list endpoint (API, first page) and main page, as the site admin and as a tenant owner."""
    for name in API_LISTS:
        for who in (admin, owner):
            if who is owner and name in ADMIN_ONLY:
                continue
            results[f"GET /api/v1/{name}/ as {who.username}"] = timed(port, f"/api/v1/{name}/", who.api_headers,
                                                                       count, bounded)  # fmt: skip
            save()
    for path in PAGES:
        for who in (admin, owner):
            if who is owner and path in ADMIN_ONLY:
                continue
            results[f"page {path} as {who.username}"] = timed(port, path, who.page_headers, count, bounded)
            save()
    return results


def measure_desired(ports, nodes: int, count: int, bounded: float) -> dict:
    """Full-document GETs gzip-encoded (as the agent asks) and plain, and unchanged GETs (ETag, no wait).

    Each is timed to the end of its body."""
    times, sizes = {"full": [], "full plain": [], "unchanged": []}, {}
    for n in range(count):
        name = f"n{random.randrange(nodes):05d}"
        path, port = f"/api/v1/agents/{name}/desired-state", ports[n % len(ports)]
        headers = {"Authorization": f"Bearer {node_credential(name)}"}
        for label, extra in (("full", {"Accept-Encoding": "gzip"}), ("full plain", {})):
            status, response, body = _timed_get(port, path, headers | extra, bounded, times[label])
            if status != 200:
                return {label: {"status": status, "body": body[:200].decode(errors="replace")}}
            sizes[label] = len(body)
        _timed_get(port, path + "?wait=0", headers | {"If-None-Match": response.get("ETag", "")}, bounded,
                   times["unchanged"])  # fmt: skip
    return {label: percentiles(samples) for label, samples in times.items()} | {
        "bytes": sizes.get("full plain"), "gzip bytes": sizes.get("full")}  # fmt: skip


def _timed_get(port, path, headers, bounded, samples: list) -> tuple[int, dict, bytes]:
    start = time.perf_counter()
    try:
        answer = request(port, "GET", path, headers, timeout=bounded)
    except TimeoutError:
        return 0, {}, f"no answer within {bounded} s".encode()
    samples.append(time.perf_counter() - start)
    return answer


class Fleet:
    """One agent per node, long-polling with the agent's own client (no kernel), over the replicas.

    The agents' threads run in child processes: 2,000 threads sharing the measuring process's GIL
    would delay the timed requests themselves, and 200 woken agents parsing under one GIL would
    delay each other's reads. The children run at nice 19: the agents stand for
    2,000 other machines, and their parsing of 3 MB documents on this machine's cores is not the
    site's cost. It reports over a queue; both sides use CLOCK_MONOTONIC, one clock for every
    process of the machine. A document's arrival is timed when its body is read, before parsing.
    """

    def __init__(self, ports, nodes: int, count: int, wait: int = 30):
        self.ports, self.names, self.wait = ports, [f"n{k:05d}" for k in range(count)], wait
        self.lock = threading.Lock()
        self.generations: dict[str, tuple[int, float, float]] = {}  # node -> (generation, arrived, parsed)
        self.first: dict[str, float] = {}
        self.parked: set[str] = set()
        self.errors: list[str] = []
        self.context = multiprocessing.get_context("fork")
        self.events, self.stopping = self.context.Queue(), self.context.Event()
        self.processes: list = []

    def start(self, ramp_s: float, processes: int = 8) -> None:
        """Start the agents over `ramp_s` seconds, spread over `processes` children (one GIL each)."""
        self.started = time.monotonic()
        self.processes = []
        for k in range(processes):
            share = list(enumerate(self.names))[k::processes]
            self.processes.append(self.context.Process(target=_fleet_main, daemon=True, args=(
                self.ports, share, len(self.names), self.wait, ramp_s, self.events, self.stopping)))  # fmt: skip
            self.processes[-1].start()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        while True:
            kind, name, *rest = self.events.get()
            with self.lock:
                if kind == "error":
                    self.errors.append(f"{name}: {rest[0]}")
                elif kind == "state":
                    self.generations[name] = (rest[0], rest[1], rest[2])
                    self.first.setdefault(name, rest[3])
                elif kind == "parked":
                    self.parked.add(name)

    def wait_parked(self, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and len(self.parked) < len(self.names):
            time.sleep(1)
        time.sleep(3)  # the last ones are in their long-poll now
        return {"agents": len(self.names), "parked": len(self.parked), "errors": len(self.errors),
                "first_errors": self.errors[:3], "parked_after_s": time.monotonic() - self.started}  # fmt: skip

    def error_count(self) -> int:
        with self.lock:
            return len(self.errors)

    def initial_latencies(self) -> dict:
        with self.lock:
            return percentiles(list(self.first.values()))

    def stop(self) -> None:
        self.stopping.set()
        for process in self.processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()


def _fleet_main(ports, share, total, wait, ramp_s, events, stopping) -> None:
    """A child process: one thread per agent of its share, reporting to the parent over `events`."""
    threading.stack_size(512 * 1024)
    os.nice(19)
    for index, name in share:
        delay = ramp_s * index / max(1, total)
        threading.Thread(target=_agent, args=(ports, name, index, delay, wait, events, stopping),
                         daemon=True).start()  # fmt: skip
    stopping.wait()


def _agent(ports, name: str, index: int, delay: float, wait: int, events, stopping) -> None:
    time.sleep(delay)
    # Spread as a load balancer would: by index, one replica got only the even pools' nodes (node k is in
    # pool k % 10) and never read the other pools' documents, which the timed GETs then found cold.
    port = ports[zlib.crc32(name.encode()) % len(ports)]
    client = _TimedClient(f"http://127.0.0.1:{port}", name, node_credential(name),
                          timeout=wait + 60)  # fmt: skip
    etag, first = None, None
    while not stopping.is_set():
        start = time.perf_counter()
        try:
            fetched = client.desired_state(etag, wait=0 if etag is None else wait)
        except (PortalError, OSError) as exc:
            events.put(("error", name, str(exc)))
            time.sleep(2)
            continue
        if fetched.state is not None:
            first = first if first is not None else time.perf_counter() - start
            events.put(("state", name, fetched.state.generation, client.arrived, time.monotonic(), first))
            _report(client, fetched.state, name, events)
        # Keep only the ETag while parked: 2,000 parsed documents held across the next long-poll
        # made the harness itself the memory hog (17 GB), not the site.
        etag, fetched = fetched.etag, None
        events.put(("parked", name))


def _report(client, state, name, events) -> None:
    """Report the generation applied, as a real agent does after applying (every tenant ready): a node
    that never reports stays behind its desired generation, and the site's sweep wakes it every 30 s."""
    tenants = {str(t.id): {"status": "ready", "errors": []} for t in state.tenants}
    try:
        client.report({"generation": state.generation, "full": True, "tenants": tenants})
    except (PortalError, OSError) as exc:
        events.put(("error", name, f"report: {exc}"))


class _TimedClient(PortalClient):
    """The agent's client, noting when each answer's body has been read (before it is parsed)."""

    arrived = 0.0

    def _request(self, *args, **kwargs):
        answer = super()._request(*args, **kwargs)
        self.arrived = time.monotonic()
        return answer


def quiet(fleet: Fleet, settle_s: float, busy_below: float = 0.5, limit_s: float = 600, cpus=()) -> dict:
    """Wait until the CPUs (`cpus`, else all) are less than `busy_below` busy over `settle_s` (or `limit_s`)."""
    start = time.monotonic()
    busy = cpu_busy(settle_s, cpus)
    while busy >= busy_below and time.monotonic() - start < limit_s:
        busy = cpu_busy(settle_s, cpus)
    return {"waited_s": time.monotonic() - start, "cpu_busy": busy, "load": os.getloadavg()[0],
            "fleet_errors": fleet.error_count()}  # fmt: skip


def cpu_busy(seconds: float, cpus=()) -> float:
    """Fraction of the CPUs' time (`cpus`, else all) not idle (nor iowait) over the next `seconds`."""
    names = {f"cpu{n}" for n in cpus} or {"cpu"}

    def sample():
        total = idle = 0
        with open("/proc/stat") as stat:
            for line in stat:
                name, *values = line.split()
                if name in names:
                    fields = [int(v) for v in values]
                    total, idle = total + sum(fields), idle + fields[3] + fields[4]
        return total, idle

    total0, idle0 = sample()
    time.sleep(seconds)
    total1, idle1 = sample()
    return 1 - (idle1 - idle0) / max(1, total1 - total0)


def propagation(site, admin: Login, fleet: Fleet, pools: int, bounded: float) -> dict:
    """Disable one rule of tenant lab-0 over the API; time until its pool's nodes are bumped and woken."""
    info = json.loads(site.python(
        "import json; from netpolicy.models import FirewallRule; from agents.models import Node\n"
        "r = FirewallRule.objects.get(policy__tenant__slug='lab-0', name='mpi')\n"
        "pool = r.policy.tenant.segments.get(name='uvn').node_pool_id\n"
        "nodes = list(Node.objects.filter(pool_id=pool).values_list('name', 'desired_generation', 'pk'))\n"
        "print(json.dumps({'rule': r.pk, 'pool': pool, 'nodes': nodes}))").splitlines()[-1])  # fmt: skip
    before = {name: generation for name, generation, _ in info["nodes"]}
    ids = [pk for _, _, pk in info["nodes"]]
    redis = _redis(site)
    owners = dict(zip(ids, redis.mget([OWNER.format(pk) for pk in ids]), strict=True))
    body = json.dumps({"enabled": False})
    start = time.monotonic()
    try:
        headers = admin.api_headers | {"Content-Type": "application/json"}
        status, _, _ = request(site.ports[0], "PATCH", f"/api/v1/firewall-rules/{info['rule']}/", headers, body,
                               timeout=bounded)  # fmt: skip
    except TimeoutError:  # the baseline compiles in the request: report it as "> bounded"
        return {"api_timeout": bounded, "nodes": len(before)}
    api_s = time.monotonic() - start
    stored_s = answered_s = woken_s = parsed_s = None
    watched = [n for n in before if n in set(fleet.names)]
    parked = [pk for pk, token in owners.items() if token is not None]  # polls parked at the PATCH
    with _connect(site) as conn:
        while time.monotonic() - start < bounded and (stored_s is None or woken_s is None):
            if stored_s is None and _all_bumped(conn, info["pool"], before):
                stored_s = time.monotonic() - start
            if answered_s is None and _all_answered(redis, parked, owners):
                answered_s = time.monotonic() - start
            with fleet.lock:
                done = [fleet.generations[n] for n in watched if fleet.generations.get(n, (0,))[0] > before[n]]
            if woken_s is None and watched and len(done) == len(watched):
                # arrived: the new document read by every agent; parsed: also parsed, by the
                # harness's one (niced) process for all 200 agents, where real nodes parse their own
                woken_s = max(d[1] for d in done) - start
                parsed_s = max(d[2] for d in done) - start
            time.sleep(0.05)
    return {"status": status, "api_s": api_s, "nodes": len(before), "agents_watched": len(watched),
            "stored_s": stored_s, "polls_parked": len(parked), "answered_s": answered_s, "woken_s": woken_s,
            "parsed_s": parsed_s, "bounded_s": bounded}  # fmt: skip


OWNER = "enclave:longpoll:node:{}"  # agents.longpoll.OWNER: the token of the node's parked poll


def _redis(site):
    import redis

    return redis.Redis.from_url(site.env["ENCLAVE_REDIS_URL"])


def _all_answered(redis, parked: list, owners: dict) -> bool:
    """Whether every poll parked at the PATCH has ended (woken and answered): its owner token is gone or
    replaced. Server side, so the harness's own parsing of 200 documents on 2 cores is not in it."""
    now = redis.mget([OWNER.format(pk) for pk in parked]) if parked else []
    return all(token != owners[pk] for pk, token in zip(parked, now, strict=True))


def _connect(site):
    """One autocommit connection to the site's database, for polls that must see each commit."""
    import psycopg

    env = site.env
    return psycopg.connect(
        host=env["ENCLAVE_DB_HOST"],
        port=env["ENCLAVE_DB_PORT"],
        dbname=env["ENCLAVE_DB_NAME"],
        user=env["ENCLAVE_DB_USER"],
        password=env.get("ENCLAVE_DB_PASSWORD", ""),
        autocommit=True,
    )


def _all_bumped(conn, pool: int, before: dict) -> bool:
    """Whether every node of the pool has a newer desired generation (one query; a poll every 50 ms)."""
    rows = conn.execute("SELECT name, desired_generation FROM agents_node WHERE pool_id = %s", [pool]).fetchall()
    return all(generation > before[name] for name, generation in rows)


def report(results: dict) -> None:
    """Markdown tables for docs/benchmarks.md."""
    print(f"machine: {results['machine']}")
    cur, base = results["current"], results.get("baseline", {})
    print("seed:", json.dumps(cur["seed"]), "\nbaseline seed:", json.dumps(base.get("seed", {})))
    print("\n| request | as | p50 ms | p95 ms | p99 ms | baseline p95 |\n|---|---|---:|---:|---:|---:|")
    for key, value in cur.get("lists", {}).items():
        what, who = key.rsplit(" as ", 1)
        print(f"| {what} | {who} | {_ms(value, 'p50')} | {_ms(value, 'p95')} | {_ms(value, 'p99')} | "
              f"{_ms(base.get('lists', {}).get(key, {}), 'p95')} |")  # fmt: skip
    refused = {k: v["status"] for k, v in cur.get("lists", {}).items() if v.get("status", [200]) != [200]}
    if refused:
        print("NOT 200 (these times measure a refusal, not the list):", refused)
    desired, base_desired = cur.get("desired", {}), base.get("desired", {})
    for label in ("full", "full plain", "unchanged"):
        print(f"desired-state GET {label}: {desired.get(label)}; baseline {base_desired.get(label)}")
    print("document bytes:", desired.get("bytes"), "gzip:", desired.get("gzip bytes"))
    print("fleet:", cur["parked"], "; initial GETs:", cur["initial_get"])
    print("propagation:", cur.get("propagation"), "\nbaseline propagation:", base.get("propagation"))
    print("machine before each phase:", cur.get("quiet"), "\nbaseline:", base.get("quiet"))
    print("peak memory MB:", cur["memory_mb"], "baseline:", base.get("memory_mb"))
    print("database MB:", cur["db_mb"], "baseline:", base.get("db_mb"))


def _ms(value: dict, key: str) -> str:
    if not value:
        return "—"
    if "timeout" in value:
        return f"> {value['timeout'] * 1000:.0f}"
    return f"{value[key] * 1000:.0f}" if key in value else "—"
