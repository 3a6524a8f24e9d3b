"""HAProxy in front of web replicas, with the `ha` profile's retry rules (deploy/haproxy.cfg) or none."""

import csv
import socket
import subprocess
from pathlib import Path

STATS = "haproxy.sock"
RETRY = "    retries 3\n    option redispatch\n    retry-on conn-failure empty-response response-timeout 502 503\n"


def haproxy(tmp, port: int, replicas: list[int], retry: bool) -> subprocess.Popen:
    """HAProxy on `port` balancing `replicas` (ports), with the ha profile's retries or none; its own group."""
    servers = "".join(f"    server w{i} 127.0.0.1:{p} check inter 1s\n" for i, p in enumerate(replicas))
    config = tmp / "haproxy.cfg"
    rules = RETRY if retry else "    retries 0\n"
    timeouts = "    timeout connect 2s\n    timeout client 60s\n    timeout server 60s\n"
    frontend = f"frontend web\n    bind 127.0.0.1:{port}\n    default_backend web\n"
    backend = f"backend web\n    balance roundrobin\n{rules}{servers}"
    stats = f"global\n    stats socket {tmp / STATS} mode 600 level user\n"
    config.write_text(f"{stats}defaults\n    mode http\n{timeouts}{frontend}{backend}")
    cmd = ["haproxy", "-W", "-db", "-f", str(config)]
    return subprocess.Popen(cmd, stderr=subprocess.DEVNULL, start_new_session=True)


def servers(tmp: Path) -> dict[str, dict[str, str]]:
    """HAProxy's own view of each server (`show stat` on its socket): status, current sessions (scur)…"""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect(str(tmp / STATS))
        sock.sendall(b"show stat\n")
        raw = b"".join(iter(lambda: sock.recv(65536), b""))
    rows = csv.DictReader(raw.decode().lstrip("# ").splitlines())
    return {row["svname"]: row for row in rows if row["svname"] not in ("FRONTEND", "BACKEND")}


def servers_up(tmp: Path) -> bool:
    """Whether HAProxy itself counts every server UP (its health checks, not only the replicas answering).

    A replica that boots after three failed checks is DOWN until two checks pass: polls sent meanwhile all
    land on the other replica, so a test that kills one would kill none of them."""
    found = servers(tmp)
    return bool(found) and all(row["status"] == "UP" for row in found.values())
