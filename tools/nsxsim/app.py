"""Start-up: options, the seeded inventory, the vCenter link, the realizer, the HTTPS server, ready.json."""

from __future__ import annotations

import argparse
import json
import logging
import os
import secrets
import signal
from pathlib import Path

from . import schema
from .api import Api
from .faults import Faults
from .handler import SimServer
from .kinds import kind_of
from .realize import EP, Realizer
from .store import Store
from .tls import server_context
from .vcenter import VCenter, VCenterConfig

HOST = "127.0.0.1"
USER = "admin"
L4 = "L4PortSetServiceEntry"
SERVICES = {
    "SSH": [{"resource_type": L4, "l4_protocol": "TCP", "destination_ports": ["22"]}],
    "HTTPS": [{"resource_type": L4, "l4_protocol": "TCP", "destination_ports": ["443"]}],
    "DNS-UDP": [{"resource_type": L4, "l4_protocol": "UDP", "destination_ports": ["53"]}],
    "ICMP-ALL": [{"resource_type": "ICMPTypeServiceEntry", "protocol": "ICMPv4"}],
}


def seeds() -> list[tuple[str, dict]]:
    """The inventory a fresh NSX Manager (as Enclave expects it) already has."""
    items = [
        ("/infra/sites/default", {}),
        (EP, {}),
        (f"{EP}/transport-zones/tz-overlay", {"tz_type": "OVERLAY_BACKED", "is_default": True}),
        (f"{EP}/transport-zones/tz-vlan", {"tz_type": "VLAN_BACKED"}),
        (f"{EP}/edge-clusters/edge-1", {}),
        ("/infra/tier-0s/t0-site", {"ha_mode": "ACTIVE_STANDBY"}),
        ("/infra/domains/default", {}),
    ]
    for name, entries in SERVICES.items():
        items.append((f"/infra/services/{name}", {"is_default": True}))
        for entry in entries:
            items.append((f"/infra/services/{name}/service-entries/{name}", {**entry, "display_name": name}))
    for path, body in items:
        schema.validate(body, body.get("resource_type") or kind_of(path).name, path)
    return items


def parse_args(argv=None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description="A strict NSX Manager stand-in (Policy API) for tests.")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free one)")
    parser.add_argument("--workdir", type=Path, required=True, help="where ca.pem and ready.json are written")
    parser.add_argument("--realize-delay", type=float, default=0.2, help="seconds an intent stays IN_PROGRESS")
    parser.add_argument("--vcsim-host", default="127.0.0.1")
    parser.add_argument("--vcsim-port", type=int, help="the vCenter (simulator) port; none: no port groups, no VMs")
    parser.add_argument("--vcsim-user", default="")
    parser.add_argument("--vcsim-password", default="")
    parser.add_argument("--vcsim-ca", default="", help="CA bundle to verify the vCenter's certificate")
    parser.add_argument("--datacenter", default="DC0")
    parser.add_argument("--dvs", default="DSwitch", help="the distributed switch segments' port groups go on")
    parser.add_argument("--verbose", action="store_true", help="log every request")
    return parser.parse_args(argv)


def vcenter_of(args: argparse.Namespace) -> VCenter | None:
    """The vCenter link, when --vcsim-port is given."""
    if not args.vcsim_port:
        return None
    config = VCenterConfig(
        host=args.vcsim_host,
        port=args.vcsim_port,
        user=args.vcsim_user,
        password=args.vcsim_password,
        ca_file=args.vcsim_ca,
        datacenter=args.datacenter,
        dvs=args.dvs,
    )
    return VCenter(config)


def write_ready(workdir: Path, port: int, password: str) -> None:
    """ready.json, written whole (renamed into place) once the server listens."""
    ready = {"port": port, "user": USER, "password": password, "url": f"https://{HOST}:{port}"}
    temp = workdir / "ready.json.tmp"
    temp.write_text(json.dumps(ready))
    os.chmod(temp, 0o600)
    temp.replace(workdir / "ready.json")


def main(argv=None) -> None:
    """Serve until SIGTERM or SIGINT."""
    args = parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="nsxsim: %(message)s")
    args.workdir.mkdir(parents=True, exist_ok=True)
    (args.workdir / "ready.json").unlink(missing_ok=True)
    context = server_context(args.workdir, HOST)
    store, faults, vcenter = Store(), Faults(), vcenter_of(args)
    store.seed(seeds())
    realizer = Realizer(store, faults, args.realize_delay, vcenter)
    password = secrets.token_urlsafe(18)
    server = SimServer((HOST, args.port), context, Api(store, realizer, faults, vcenter), store, faults, USER, password)
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    realizer.start()
    port = server.server_address[1]
    write_ready(args.workdir, port, password)
    logging.getLogger("nsxsim").info("listening on https://%s:%d (workdir %s)", HOST, port, args.workdir)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        if vcenter is not None:
            vcenter.close()
