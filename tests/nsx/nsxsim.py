"""The NSX Manager stand-in (tools/nsxsim) as a test process: start, call, inject faults, stop."""

from __future__ import annotations

import base64
import json
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from tests.vsphere.conftest import Sim, free_port, spawn, stop_group

__all__ = ["NsxSim", "free_port"]
ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "tools" / "nsxsim" / "server.py"
API = "/policy/api/v1"


@dataclass
class NsxSim:
    """One running stand-in process, its API and its /_enclave/ controls."""

    workdir: Path
    port: int
    vcsim: Sim | None = None  # a running vCenter simulator: segments get port groups there, VMs are listed
    dvs: str = ""  # the distributed switch in its DC0 for those port groups
    extra_args: tuple[str, ...] = ()
    proc: subprocess.Popen | None = None
    info: dict | None = None

    @property
    def ca_file(self) -> str:
        return str(self.workdir / "ca.pem")

    @property
    def url(self) -> str:
        return self.info["url"]

    @property
    def user(self) -> str:
        return self.info["user"]

    @property
    def password(self) -> str:
        return self.info["password"]

    def vcsim_args(self) -> list[str]:
        """The command line wiring the stand-in to the vCenter simulator (none without one)."""
        if self.vcsim is None:
            return []
        sim = self.vcsim
        return ["--vcsim-host", "127.0.0.1", "--vcsim-port", str(sim.port), "--vcsim-user", sim.info["user"],
                "--vcsim-password", sim.info["password"], "--vcsim-ca", sim.ca_file, "--datacenter", "DC0",
                "--dvs", self.dvs]  # fmt: skip

    def start(self) -> NsxSim:
        self.workdir.mkdir(parents=True, exist_ok=True)
        ready = self.workdir / "ready.json"
        ready.unlink(missing_ok=True)
        args = [sys.executable, str(SERVER), "--port", str(self.port), "--workdir", str(self.workdir)]
        args += self.vcsim_args()
        log = self.workdir / f"nsxsim-{self.port}.log"
        self.proc, self.info = spawn([*args, *self.extra_args], log, ready, "the NSX stand-in")
        return self

    def stop(self) -> None:
        stop_group(self.proc)
        self.proc = None

    def _open(self, method: str, url: str, body=None, headers: dict | None = None) -> tuple[int, object]:
        """(status, parsed JSON or None) of one HTTPS call; error statuses are answers, not exceptions."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
        if data is not None:
            request.add_header("Content-Type", "application/json")
        context = ssl.create_default_context(cafile=self.ca_file)
        try:
            with urllib.request.urlopen(request, context=context, timeout=30) as reply:
                status, raw = reply.status, reply.read()
        except urllib.error.HTTPError as exc:
            status, raw = exc.code, exc.read()
        return status, json.loads(raw) if raw else None

    def call(self, method: str, path: str, body=None, auth: tuple[str, str] | None = None) -> tuple[int, object]:
        """An API call (path under /policy/api/v1, or absolute) with basic auth (the stand-in's by default)."""
        user, password = auth or (self.user, self.password)
        token = base64.b64encode(f"{user}:{password}".encode()).decode()
        full = path if path.startswith(("/policy/", "/api/")) else API + path
        return self._open(method, self.url + full, body, {"Authorization": f"Basic {token}"})

    def patch_infra(self, *children: dict) -> tuple[int, object]:
        """The hierarchical PATCH of /infra with these Child* wrappers."""
        return self.call("PATCH", "/infra", {"resource_type": "Infra", "children": list(children)})

    def control(self, method: str, path: str, body: dict | None = None):
        status, answer = self._open(method, f"{self.url}/_enclave/{path}", body)
        if status != 200:
            raise RuntimeError(f"control {method} {path}: {status} {answer}")
        return answer

    def inject(self, fault: dict | None = None, **spec) -> None:
        """Arm a fault, as a dict or keywords (tools/nsxsim/README.md): an HTTP answer or a realization error."""
        self.control("POST", "faults", {**(fault or {}), **spec})

    def clear_faults(self, **selector) -> None:
        """Disarm every fault, or only those whose fields equal the keywords (realize_error="/infra/...")."""
        self.control("DELETE", "faults", selector or None)

    def stats(self) -> dict[str, int]:
        return self.control("GET", "stats")["calls"]

    def reset_stats(self) -> None:
        self.control("DELETE", "stats")

    def objects(self) -> list[str]:
        return self.control("GET", "objects")

    def delete(self, path: str) -> int:
        """DELETE one object by its policy path (behind Enclave's back); the status."""
        return self.call("DELETE", path)[0]

    def group_members(self, group: str) -> list[str]:
        """Names of the VMs a group (its id in the default domain, or its path) selects now."""
        path = group if group.startswith("/") else f"/infra/domains/default/groups/{group}"
        status, answer = self.call("GET", f"{path}/members/virtual-machines")
        if status != 200:
            raise RuntimeError(f"members of {path}: {status} {answer}")
        return sorted(vm["display_name"] for vm in answer["results"])

    def status(self, intent_path: str) -> tuple[int, object]:
        """The consolidated realization status of an intent."""
        return self.call("GET", f"/infra/realized-state/status?intent_path={intent_path}")

    def wait_status(self, intent_path: str, wanted: str = "SUCCESS", timeout: float = 20) -> dict:
        """Poll the realization status until it is `wanted` (or another final state); the last answer."""
        deadline = time.monotonic() + timeout
        while True:
            status, answer = self.status(intent_path)
            state = answer["consolidated_status"]["consolidated_status"] if status == 200 else None
            if state == wanted or (state in ("SUCCESS", "ERROR") and time.monotonic() > deadline):
                return answer
            if time.monotonic() > deadline:
                raise TimeoutError(f"{intent_path} still {state} after {timeout}s: {answer}")
            time.sleep(0.05)
