#!/usr/bin/env python3
"""Check a running Compose stack from outside, as its users would (stdlib only; deploy/smoke.sh).

Plain HTTP to the published port stands in for the TLS proxy: requests carry
`X-Forwarded-Proto: https`, so the production settings (secure cookies, CSRF origin checks) apply
as behind a real proxy. Checks: /healthz over plain HTTP, the static files, a login through the
form, and a cluster request submitted by a member, endorsed by its PI and approved by the site
admin that the worker realises to Ready on the vCenter simulator.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Let the caller see 302s (the login answers with one)."""

    def redirect_request(self, *args):
        return None


class Session:
    """One browser: a cookie jar kept by hand (cookies are Secure; the transport here is not)."""

    def __init__(self, base: str):
        self.base, self.cookies = base, {}
        self.opener = urllib.request.build_opener(NoRedirect)

    def request(self, method: str, path: str, data: bytes | None = None, ctype: str = "") -> tuple[int, bytes]:
        origin = self.base.replace("http://", "https://")
        headers = {"X-Forwarded-Proto": "https", "Origin": origin, "Referer": origin + path}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if "csrftoken" in self.cookies:
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
        if ctype:
            headers["Content-Type"] = ctype
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)  # noqa: S310
        try:
            with self.opener.open(req, timeout=60) as resp:
                status, body, hdrs = resp.status, resp.read(), resp.headers
        except urllib.error.HTTPError as exc:
            status, body, hdrs = exc.code, exc.read(), exc.headers
        for cookie in hdrs.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return status, body

    def api(self, method: str, path: str, body: dict | None = None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        status, out = self.request(method, path, data, "application/json" if data else "")
        if status >= 400:
            raise SystemExit(f"smoke: {method} {path} -> {status}: {out[:500]!r}")
        return json.loads(out) if out else {}

    def login(self, username: str, password: str) -> None:
        status, page = self.request("GET", "/login/")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if status != 200 or token is None:
            raise SystemExit(f"smoke: GET /login/ -> {status}, no CSRF form")
        form = urllib.parse.urlencode({"username": username, "password": password,
                                       "csrfmiddlewaretoken": token.group(1).decode()}).encode()  # fmt: skip
        status, _ = self.request("POST", "/login/", form, "application/x-www-form-urlencoded")
        if status != 302 or "sessionid" not in self.cookies:
            raise SystemExit(f"smoke: login of {username} -> {status}, no session")
        print(f"smoke: {username} logged in through the form")


def wait_healthy(base: str, timeout: float) -> None:
    """GET /healthz over plain HTTP (no proxy header) until 200."""
    deadline, last = time.monotonic() + timeout, ""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=10) as resp:  # noqa: S310
                print(f"smoke: /healthz {resp.status} {resp.read().decode()}")
                return
        except (urllib.error.URLError, OSError) as exc:
            last = str(exc)
        time.sleep(2)
    raise SystemExit(f"smoke: /healthz never answered 200 ({last})")


def static_served(base: str) -> None:
    """Every stylesheet and script the login page names comes from gunicorn itself."""
    session = Session(base)
    _, page = session.request("GET", "/login/")
    assets = re.findall(rb'(?:href|src)="(/static/[^"]+)"', page)
    if not assets:
        raise SystemExit("smoke: the login page names no static files")
    for asset in assets:
        status, body = session.request("GET", asset.decode())
        if status != 200 or not body:
            raise SystemExit(f"smoke: GET {asset.decode()} -> {status}")
    print(f"smoke: {len(assets)} static files served ({assets[0].decode()}, ...)")


def cluster_to_ready(base: str, logins: dict, timeout: float, name: str = "smoke") -> int:
    """Member submits, PI endorses, admin approves; the worker must make it Ready on vcsim."""
    member, owner, admin = Session(base), Session(base), Session(base)
    member.login("arno", logins["arno"])
    owner.login("alice", logins["alice"])
    admin.login("admin", logins["admin"])
    tenants = member.api("GET", "/api/v1/tenants/")
    tenant = next(t for t in tenants.get("results", tenants) if t["slug"] == "astro")
    body = {
        "tenant": tenant["id"], "name": name, "workload_class": "parallel-distributed", "worker_count": 2,
        "vcpus_per_node": 4, "memory_gb_per_node": 8, "login_node": False, "interconnect": "sriov-ib",
        "network_mode": "vlan", "data_path": "standard", "submit": True, "justification": "compose smoke test",
        "lease_end": (datetime.date.today() + datetime.timedelta(days=30)).isoformat(),
    }  # fmt: skip
    pk = member.api("POST", "/api/v1/clusters/", body)["id"]
    owner.api("POST", f"/api/v1/clusters/{pk}/endorse/")
    admin.api("POST", f"/api/v1/clusters/{pk}/approve/")
    print(f"smoke: cluster {pk} submitted, endorsed, approved")
    deadline, state = time.monotonic() + timeout, ""
    while time.monotonic() < deadline:
        cluster = member.api("GET", f"/api/v1/clusters/{pk}/")
        if cluster["state"] != state:
            state = cluster["state"]
            print(f"smoke: cluster {pk} is {state}")
        if state == "ready":
            return pk
        if state == "error":
            break
        time.sleep(3)
    raise SystemExit(f"smoke: cluster {pk} ended {state!r}: {cluster.get('status_message', '')}")


def still_ready(base: str, logins: dict, pk: int) -> None:
    """A cluster acknowledged before a failover is still there, Ready (the ha smoke)."""
    member = Session(base)
    member.login("arno", logins["arno"])
    state = member.api("GET", f"/api/v1/clusters/{pk}/")["state"]
    if state != "ready":
        raise SystemExit(f"smoke: cluster {pk} is {state!r} after the failover")
    print(f"smoke: cluster {pk} is still ready")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--base", required=True, help="e.g. http://127.0.0.1:8000")
    ap.add_argument("--replica", action="append", default=[], help="another web replica: its /healthz too")
    ap.add_argument("--logins", required=True, help="JSON {username: password} printed by seed_demo")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--name", default="smoke", help="the new cluster's name")
    ap.add_argument("--still-ready", type=int, action="append", default=[], help="a cluster that must be Ready")
    ap.add_argument("--record", help="write the new cluster's id into this file")
    ap.add_argument("--no-request", action="store_true", help="no new cluster (the tenant's quota is 4)")
    args = ap.parse_args()
    for base in (args.base, *args.replica):
        wait_healthy(base, args.timeout)
    static_served(args.base)
    logins = json.loads(args.logins)
    for pk in args.still_ready:
        still_ready(args.base, logins, pk)
    if args.no_request:
        print("smoke: OK")
        return 0
    pk = cluster_to_ready(args.base, logins, args.timeout, args.name)
    if args.record:
        with open(args.record, "w") as out:
            out.write(f"{pk}\n")
    print("smoke: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
