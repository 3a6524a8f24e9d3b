"""The one module that talks to NSX Manager (Policy API over HTTPS); everything else goes through it."""

from __future__ import annotations

from dataclasses import dataclass

import requests

from nsx.choices import NSX_STATUS, Realization

API = "/policy/api/v1"
VMS = f"{API}/infra/realized-state/enforcement-points/default/virtual-machines"
TRANSIENT_STATUS = {429, 500, 502, 503, 504}
TIMEOUT = 30  # seconds per request


class NsxError(Exception):
    """A failed NSX call; `transient` says whether retrying later may help."""

    def __init__(self, message: str, *, status: int = 0, transient: bool = False):
        super().__init__(message)
        self.status = status
        self.transient = transient


class RevisionConflict(NsxError):
    """412: somebody changed the object since Enclave read it (compare-and-set lost)."""


@dataclass(frozen=True)
class NsxConfig:
    """Connection settings; `verify` is True, a CA bundle path, or False only in labs."""

    url: str
    username: str
    password: str
    verify: bool | str = True


class NsxClient:
    """Policy API calls with NSX's errors mapped to transient or permanent; counts its calls."""

    def __init__(self, config: NsxConfig):
        self.base = config.url.rstrip("/")
        self.session = requests.Session()
        self.session.auth = (config.username, config.password)
        self.verify = config.verify  # per request: requests lets REQUESTS_CA_BUNDLE override a session's verify
        self.session.headers.update({"Accept": "application/json"})
        self.calls = 0

    def __enter__(self) -> NsxClient:
        return self

    def __exit__(self, *exc) -> None:
        self.session.close()

    def request(self, method: str, path: str, body: dict | None = None, params: dict | None = None) -> dict:
        """One call; redirects are never followed (credentials stay with the configured host)."""
        self.calls += 1
        try:
            reply = self.session.request(method, self.base + path, json=body, params=params, timeout=TIMEOUT,
                                         verify=self.verify, allow_redirects=False)  # fmt: skip
        except requests.exceptions.SSLError as exc:
            raise NsxError(f"TLS verification of {self.base} failed: {exc}") from None
        except (requests.ConnectionError, requests.Timeout) as exc:
            raise NsxError(f"NSX Manager {self.base} is unreachable: {exc}", transient=True) from None
        if reply.status_code < 300:
            return reply.json() if reply.content else {}
        raise _error(method, path, reply)

    def patch_infra(self, body: dict, check_revisions: bool = False) -> None:
        """The hierarchical PATCH: everything in `body` applied by NSX at once, or nothing.

        NSX compares the `_revision`s a hierarchical body carries only when asked to.
        """
        params = {"enforce_revision_check": "true"} if check_revisions else None
        self.request("PATCH", f"{API}/infra", body, params=params)

    def get(self, path: str) -> dict:
        return self.request("GET", API + path)

    def listing(self, path: str, params: dict | None = None) -> list[dict]:
        """Every result of a list call, following NSX's cursor."""
        results, params = [], dict(params or {})
        while True:
            page = self.request("GET", API + path, params=params)
            results += page.get("results", [])
            if not page.get("cursor") or not page.get("results"):
                return results
            params["cursor"] = page["cursor"]

    def realization(self, intent_path: str) -> tuple[str, str]:
        """(state, NSX's error message) of one intent, from the realized-state API."""
        status = self.request("GET", f"{API}/infra/realized-state/status", params={"intent_path": intent_path})
        consolidated = status.get("consolidated_status", {}).get("consolidated_status")
        state = NSX_STATUS.get(consolidated, Realization.IN_PROGRESS)
        if state != Realization.ERROR:
            return state, ""
        entities = self.request("GET", f"{API}/infra/realized-state/realized-entities",
                                params={"intent_path": intent_path}).get("results", [])  # fmt: skip
        messages = [a.get("message", "") for e in entities for a in e.get("alarms") or []]
        return state, "; ".join(filter(None, messages)) or status.get("publish_status", "error")

    def vms(self, names: set[str]) -> dict[str, dict]:
        """The named VMs as NSX's inventory knows them (external_id, tags); one a vCenter just made may be missing."""
        found = {}
        for name in sorted(names):
            for vm in self.listing(VMS[len(API) :], {"display_name": name}):
                if vm.get("display_name") == name:
                    found[name] = vm
        return found

    def set_vm_tags(self, external_id: str, tags: list[dict]) -> None:
        """Replace one VM's tags."""
        self.request("POST", VMS, {"external_id": external_id, "tags": tags}, params={"action": "update_tags"})


def _error(method: str, path: str, reply: requests.Response) -> NsxError:
    try:
        detail = reply.json().get("error_message") or reply.text
    except ValueError:
        detail = reply.text[:300]
    message = f"NSX answered {reply.status_code} to {method} {path}: {detail}"
    if reply.status_code == 412:
        return RevisionConflict(message, status=412, transient=True)
    return NsxError(message, status=reply.status_code, transient=reply.status_code in TRANSIENT_STATUS)
