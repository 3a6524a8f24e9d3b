"""HAProxy in front of web replicas, with the `ha` profile's retry rules (deploy/haproxy.cfg) or none."""

import subprocess

RETRY = "    retries 3\n    option redispatch\n    retry-on conn-failure empty-response response-timeout 502 503\n"


def haproxy(tmp, port: int, replicas: list[int], retry: bool) -> subprocess.Popen:
    """HAProxy on `port` balancing `replicas` (ports), with the ha profile's retries or none; its own group."""
    servers = "".join(f"    server w{i} 127.0.0.1:{p} check inter 1s\n" for i, p in enumerate(replicas))
    config = tmp / "haproxy.cfg"
    rules = RETRY if retry else "    retries 0\n"
    timeouts = "    timeout connect 2s\n    timeout client 60s\n    timeout server 60s\n"
    frontend = f"frontend web\n    bind 127.0.0.1:{port}\n    default_backend web\n"
    backend = f"backend web\n    balance roundrobin\n{rules}{servers}"
    config.write_text(f"defaults\n    mode http\n{timeouts}{frontend}{backend}")
    cmd = ["haproxy", "-W", "-db", "-f", str(config)]
    return subprocess.Popen(cmd, stderr=subprocess.DEVNULL, start_new_session=True)
