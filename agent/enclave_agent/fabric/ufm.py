"""NVIDIA UFM as the fabric's subnet manager: the tenant partitions through UFM's PKey REST API.

UFM runs OpenSM underneath and owns its partitions.conf; Enclave changes only the pkeys it created
(partition names `enclave_XXXX`), through `/ufmRest/resources/pkeys` (GET with guids_data, PUT to set a
pkey's GUIDs, DELETE). A pkey of Enclave's range that UFM holds under another name is an error, never
taken over. The default partition is UFM's own configuration (its default membership must be
`limited`, and the site's shared ports full there); the readback's isolation check shows if it is not.
Tables are read from the ports (the UFM host is on the fabric), as for OpenSM.
"""

from __future__ import annotations

import base64
import http.client
import json
import ssl
import urllib.parse
from pathlib import Path

from .. import fabric_wire as fw
from ..client import check_server
from .diags import Diags
from .opensm import write_durable
from .realizer import Applied, ReadsFabric, RealizerError, SubnetManager

PKEYS = "/ufmRest/resources/pkeys"
VERSION = "/ufmRest/app/ufm_version"


def ufm_guid(guid: str) -> str:
    """UFM's spelling of a port GUID: 16 hex digits without 0x."""
    return fw.guid(guid)[2:]


def wire_guid(text: object) -> str | None:
    """A GUID as UFM answers it, in the wire's canonical form (None if it is not one)."""
    if not isinstance(text, str):
        return None
    value = text.lower().removeprefix("0x")
    try:
        return fw.guid(f"0x{int(value, 16):016x}") if 1 <= len(value) <= 16 else None
    except ValueError:
        return None


class UfmClient:
    """UFM's REST API with basic authentication; https (http only to loopback), no redirects followed."""

    def __init__(self, url: str, user: str, password: str, cafile: str | None = None, timeout: float = 30.0):
        self.url = check_server(url)
        self.auth = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
        self.context, self.timeout = ssl.create_default_context(cafile=cafile), timeout

    def request(self, method: str, path: str, body: dict | None = None) -> object:
        """One call; the decoded JSON answer (None when empty), RealizerError on any failure."""
        parts = urllib.parse.urlsplit(self.url)
        conn: http.client.HTTPConnection
        if parts.scheme == "https":
            conn = http.client.HTTPSConnection(parts.netloc, timeout=self.timeout, context=self.context)
        else:
            conn = http.client.HTTPConnection(parts.netloc, timeout=self.timeout)
        headers = {"Authorization": self.auth, "Accept": "application/json", "Content-Type": "application/json"}
        try:
            conn.request(
                method, parts.path + path, body=json.dumps(body) if body is not None else None, headers=headers
            )
            resp = conn.getresponse()
            data = resp.read()
        except (OSError, http.client.HTTPException) as exc:
            raise RealizerError(f"UFM {method} {path}: {exc}") from None
        finally:
            conn.close()
        if resp.status >= 300:
            raise RealizerError(f"UFM {method} {path}: HTTP {resp.status}: {data[:200].decode(errors='replace')}")
        try:
            return json.loads(data) if data.strip() else None
        except ValueError:
            raise RealizerError(f"UFM {method} {path}: the answer is not JSON") from None


class Ufm(ReadsFabric, SubnetManager):
    """UFM Enterprise managing the fabric; the agent runs on (or next to) the UFM host."""

    kind = "ufm"

    def __init__(self, client: UfmClient, state_dir: Path, diags: Diags | None = None):
        self.client, self.diags = client, diags or Diags()
        self.written = Path(state_dir) / "ufm.written.json"  # each pkey's members as this agent last set them
        self._ports: dict = {}
        self._sm_ports: set = set()

    def _last(self) -> dict[str, list[str]]:
        try:
            data = json.loads(self.written.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def current(self) -> dict[str, dict]:
        """UFM's pkeys as {canonical key: {"name", "guids" (full members), "other" (any other membership)}}."""
        answer = self.client.request("GET", f"{PKEYS}?guids_data=true")
        if not isinstance(answer, dict):
            raise RealizerError("UFM GET pkeys: expected an object")
        out = {}
        for key, item in answer.items():
            try:
                number = fw.pkey(f"0x{int(str(key), 16) & 0x7FFF:04x}", 0, 0x7FFF)
            except (ValueError, fw.FabricError):
                continue
            members = item.get("guids") or [] if isinstance(item, dict) else []
            full = {wire_guid(m.get("guid")) for m in members if isinstance(m, dict) and m.get("membership") == "full"}
            out[fw.pkey_text(number)] = {"name": item.get("partition") if isinstance(item, dict) else None,
                                         "guids": full - {None}, "all": len(members)}  # fmt: skip
        return out

    def apply(self, desired: dict) -> Applied:
        """PUT every Enclave pkey whose full members differ, DELETE Enclave pkeys no longer desired."""
        have, done, last = self.current(), Applied(), self._last()
        wanted = {p[fw.PKEY]: p for p in desired[fw.PARTITIONS]}
        for key, part in sorted(wanted.items()):
            name = fw.partition_name(int(key, 16))
            found = have.get(key)
            if found and found["name"] != name:
                raise RealizerError(f"UFM holds pkey {key} as {found['name']!r}, not Enclave's {name}")
            if found and found["guids"] == set(part[fw.FULL]) and found["all"] == len(part[fw.FULL]):
                continue
            if found and key in last and (found["guids"] != set(last[key]) or found["all"] != len(last[key])):
                done.notices.append(f"drift: UFM pkey {key} was changed outside Enclave; set again")
            guids = [ufm_guid(g) for g in part[fw.FULL]]
            body = {"pkey": key, "partition_name": name, "guids": guids, "membership": "full", "index0": False}
            self.client.request("PUT", PKEYS, body | {"ip_over_ib": part[fw.IPOIB], "mtu_limit": part[fw.MTU]})
            done.changed = True
        for key, found in sorted(have.items()):
            if key not in wanted and found["name"] == fw.partition_name(int(key, 16)):
                self.client.request("DELETE", f"{PKEYS}/{key}")
                done.changed = True
        if done.changed or set(last) != set(wanted):
            write_durable(self.written, json.dumps({k: p[fw.FULL] for k, p in wanted.items()}))
        return done

    def hardening(self) -> dict:
        """UFM's version; M_Key and SM_Key are UFM's OpenSM settings, not in its REST API: unconfirmed."""
        answer = self.client.request("GET", VERSION)
        version = answer.get("ufm_release_version") if isinstance(answer, dict) else None
        foreign = self.foreign_sms()
        return {"kind": self.kind, "version": str(version or "unknown")[:40], "m_key": False, "m_key_protect": 0,
                "sm_key": False, "foreign_sms": foreign}  # fmt: skip
