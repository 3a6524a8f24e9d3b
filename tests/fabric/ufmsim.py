"""A strict stand-in for NVIDIA UFM's PKey REST API, backed by the simulated fabric's real OpenSM.

**This is not UFM.** No UFM simulator exists, so the UFM realizer's tests talk to this small HTTP
server. It answers the calls the realizer makes, shaped as UFM's REST API guide documents them
(`GET /ufmRest/resources/pkeys?guids_data=true`, `PUT /ufmRest/resources/pkeys` to set a pkey's GUIDs,
`DELETE /ufmRest/resources/pkeys/<pkey>`, `GET /ufmRest/app/ufm_version`), and is **strict**: basic
authentication; a body with an unknown field, a wrong JSON type, a GUID other than 16-20 hex digits, a
pkey outside 0x0-0x7fff (exclusive), a membership other than full/limited or an MTU limit outside 1-5
is a 400 naming the field. Like UFM, which runs OpenSM, it writes its pkeys into the fabric's
partitions.conf (the default partition with UFM's `default_membership = limited` and the ports the
site made full members there in UFM, `shared`) and signals OpenSM,
so the ports' tables really change. Tests may edit `pkeys` directly (an administrator in UFM's UI).
"""

from __future__ import annotations

import base64
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

USER, PASSWORD = "admin", "ufm-standin-password"
GUID_RE = re.compile(r"(0x)?[0-9a-fA-F]{16,20}")
NAME_RE = re.compile(r"[A-Za-z0-9_]{1,64}")
FIELDS = {"pkey": str, "partition_name": str, "guids": list, "membership": str, "index0": bool,
          "ip_over_ib": bool, "mtu_limit": int, "service_level": int, "rate_limit": float}  # fmt: skip


class BadRequest(ValueError):
    """A request UFM would refuse (400)."""


def check_body(body: object) -> dict:
    """A PUT pkeys body, checked field by field as UFM's guide describes it."""
    if not isinstance(body, dict):
        raise BadRequest("body: expected a JSON object")
    for name, value in body.items():
        kind = FIELDS.get(name)
        if kind is None:
            raise BadRequest(f"{name}: unknown field")
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise BadRequest(f"{name}: expected {kind.__name__}")
    for name in ("pkey", "guids"):
        if name not in body:
            raise BadRequest(f"{name}: missing")
    key = pkey_number(body["pkey"])
    if not all(isinstance(g, str) and GUID_RE.fullmatch(g) for g in body["guids"]):
        raise BadRequest("guids: each must be 16-20 hexadecimal digits")
    if body.get("membership", "full") not in ("full", "limited"):
        raise BadRequest("membership: expected full or limited")
    if not 1 <= body.get("mtu_limit", 4) <= 5 or not 0 <= body.get("service_level", 0) <= 15:
        raise BadRequest("mtu_limit or service_level: out of range")
    if not NAME_RE.fullmatch(body.get("partition_name", f"pkey_{key:x}")):
        raise BadRequest("partition_name: letters, digits and _ only")
    return body


def pkey_number(text: str) -> int:
    """A pkey as UFM takes it: a hex string strictly between 0x0 and 0x7fff."""
    try:
        number = int(text, 16)
    except (TypeError, ValueError):
        raise BadRequest("pkey: expected a hexadecimal string") from None
    if not 0 < number < 0x7FFF:
        raise BadRequest("pkey: must be between 0x0 and 0x7fff exclusive")
    return number


class UfmStandIn:
    """The stand-in server; `pkeys` is its state, `apply()` writes it to the fabric's OpenSM."""

    def __init__(self, fabric, shared: tuple[str, ...] = ()):
        self.fabric, self.pkeys, self.requests, self.shared = fabric, {}, [], shared  # shared: UFM's own config
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.lock = threading.Lock()

    def __enter__(self) -> UfmStandIn:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.apply()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def apply(self) -> None:
        """Render the pkeys into partitions.conf and make OpenSM re-read it, as UFM does."""
        shared = "".join(f", {guid}=full" for guid in self.shared)
        lines = [f"Default=0x7fff, ipoib : ALL_CAS=limited, ALL_SWITCHES=full, SELF=full{shared} ;\n"]
        for key, item in sorted(self.pkeys.items()):
            members = ",".join(f"\n  0x{int(m['guid'], 16):016x}={m['membership']}" for m in item["guids"])
            flags = f"{key}{', ipoib' if item['ip_over_ib'] else ''}, mtu={item['mtu_limit']}"
            lines.append(f"{item['partition']}={flags} :{members} ;\n")
        self.fabric.partitions.write_text("".join(lines))
        self.fabric.sm(self.fabric.dir / "ufm").reload()

    def put(self, body: dict) -> None:
        """Set a pkey's GUIDs (creating the pkey), as `PUT /ufmRest/resources/pkeys`."""
        key = f"0x{pkey_number(body['pkey']):x}"
        members = [{"guid": g.lower().removeprefix("0x"), "membership": body.get("membership", "full"),
                    "index0": body.get("index0", False)} for g in body["guids"]]  # fmt: skip
        name = body.get("partition_name", f"pkey_{key[2:]}")
        options = {"ip_over_ib": body.get("ip_over_ib", True), "mtu_limit": body.get("mtu_limit", 4)}
        self.pkeys[key] = {"partition": name, "guids": members, **options}

    def _handler(self):
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                """Quiet."""

            def _send(self, code: int, body=None):
                data = json.dumps(body).encode() if body is not None else b""
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _authorised(self) -> bool:
                secret = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
                return self.headers.get("Authorization") == f"Basic {secret}"

            def _dispatch(self, method: str):
                standin.requests.append((method, self.path))
                if not self._authorised():
                    return self._send(401, {"error": "unauthorized"})
                path, query = urlsplit(self.path).path, urlsplit(self.path).query
                try:
                    with standin.lock:
                        return self._route(method, path, query)
                except BadRequest as exc:
                    return self._send(400, {"error": str(exc)})

            def _route(self, method: str, path: str, query: str):
                if method == "GET" and path == "/ufmRest/app/ufm_version":
                    return self._send(200, {"ufm_release_version": "stand-in"})
                if method == "GET" and path == "/ufmRest/resources/pkeys":
                    if query != "guids_data=true":
                        raise BadRequest("this stand-in answers only ?guids_data=true")
                    return self._send(200, standin.pkeys)
                if method == "PUT" and path == "/ufmRest/resources/pkeys":
                    length = int(self.headers.get("Content-Length", 0))
                    try:
                        body = json.loads(self.rfile.read(length))
                    except ValueError:
                        raise BadRequest("body: not JSON") from None
                    standin.put(check_body(body))
                    standin.apply()
                    return self._send(200, {})
                if method == "DELETE" and path.startswith("/ufmRest/resources/pkeys/"):
                    key = f"0x{pkey_number(path.rsplit('/', 1)[1]):x}"
                    if standin.pkeys.pop(key, None) is None:
                        return self._send(404, {"error": f"pkey {key} not found"})
                    standin.apply()
                    return self._send(200, {})
                return self._send(404, {"error": "not found"})

            def do_GET(self):  # noqa: N802 - http.server naming
                self._dispatch("GET")

            def do_PUT(self):  # noqa: N802 - http.server naming
                self._dispatch("PUT")

            def do_DELETE(self):  # noqa: N802 - http.server naming
                self._dispatch("DELETE")

        return Handler
