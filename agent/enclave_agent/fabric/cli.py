"""`enclave-fabric-agent` command line: join a fabric, run the loop, or one pass (tests, break-glass)."""

from __future__ import annotations

import argparse
import configparser
import json
import logging
import shlex
import socket
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

from .. import config, credential
from .. import fabric_wire as fw
from ..client import PortalError
from .agent import FabricAgent, FabricClient, join, loop, one_pass
from .diags import Diags
from .opensm import OpenSM
from .realizer import RealizerError, SubnetManager
from .ufm import Ufm, UfmClient

DEFAULT_CONFIG = Path("/etc/enclave-fabric-agent/agent.conf")
DEFAULTS = {
    "state_dir": "/var/lib/enclave-fabric-agent",
    "partitions": "/etc/opensm/partitions.conf",
    "options": "/etc/opensm/opensm.conf",
    "pidfile": "",
    "ca": "",
    "port": "",
    "restart_command": "",  # e.g. "systemctl restart opensm": lets the agent undo tables written past the SM
    "kind": "opensm",  # or "ufm"
    "ufm_url": "",
    "ufm_user": "",
    "ufm_password_file": "",  # root-only file holding UFM's password
    "ufm_cafile": "",
}


def settings(path: Path) -> dict[str, str]:
    """Section [fabric] of the root-owned config file, over the defaults (never the environment)."""
    values = dict(DEFAULTS)
    if path.exists():
        config.trusted(path)
        parser = configparser.ConfigParser()
        parser.read_string(path.read_text(), source=str(path))
        values.update(
            {k: v for k, v in parser.items("fabric") if k in DEFAULTS} if parser.has_section("fabric") else {}
        )
    return values


def build_sm(args: argparse.Namespace) -> SubnetManager:
    """The realizer the settings name (command-line flags win)."""
    port = int(args.port) if args.port else None
    diags = Diags(ca=args.ca or None, port=port)
    if args.kind == "ufm":
        password = Path(args.ufm_password_file).read_text().strip()
        client = UfmClient(args.ufm_url, args.ufm_user, password, cafile=args.ufm_cafile or None)
        return Ufm(client, Path(args.state_dir), diags)
    if args.kind != "opensm":
        raise config.ConfigError(f"kind: expected opensm or ufm, not {args.kind!r}")
    pidfile = Path(args.pidfile) if args.pidfile else None
    restart = partial(run_command, shlex.split(args.restart_command)) if args.restart_command else None
    return OpenSM(Path(args.partitions), Path(args.options), Path(args.state_dir), pidfile, diags, restart)


def run_command(argv: list[str]) -> None:
    """The configured restart command (no shell, bounded); RealizerError when it fails."""
    try:
        subprocess.run(argv, check=True, capture_output=True, timeout=120)  # noqa: S603 - root's own config
    except (OSError, subprocess.SubprocessError) as exc:
        raise RealizerError(f"{argv[0]}: {exc}") from None


def cmd_join(args: argparse.Namespace) -> int:
    """Exchange a one-time token for the fabric's credential (stored 0600)."""
    data = join(args.server, args.token, args.hostname or socket.gethostname(), cafile=args.cafile)
    state = Path(args.state_dir)
    state.mkdir(parents=True, exist_ok=True, mode=0o700)
    cred = credential.Credential(args.server, data["fabric"], data["credential"])
    if isinstance(data.get("expires_in"), int | float):
        cred = cred.renewed(data["credential"], time.time(), float(data["expires_in"]))
    credential.save(state / "credential.json", cred)
    print(f"joined fabric {data['fabric']}")
    return 0


def _client(args: argparse.Namespace) -> tuple[FabricClient, Path]:
    path = Path(args.state_dir) / "credential.json"
    cred = credential.load(path)
    return FabricClient(cred.server, cred.node, cred.credential, cafile=args.cafile), path


def cmd_run(args: argparse.Namespace) -> int:
    """The loop against the portal."""
    client, path = _client(args)
    agent = FabricAgent(build_sm(args), Path(args.state_dir), settle=args.settle)
    loop(agent, client, interval=args.interval, credential_file=path)
    return 0


def cmd_once(args: argparse.Namespace) -> int:
    """One pass against the portal; prints the report, exits 1 when it names errors."""
    client, _ = _client(args)
    agent = FabricAgent(build_sm(args), Path(args.state_dir), settle=args.settle)
    try:
        report, _ = one_pass(agent, client, None)
    except PortalError as exc:
        print(f"enclave-fabric-agent: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(report, indent=1))
    return 1 if report[fw.ERRORS] else 0


def cmd_apply(args: argparse.Namespace) -> int:
    """One pass from a file, no portal (break-glass); a refused document changes nothing."""
    try:
        desired = fw.parse_desired(json.loads(Path(args.file).read_text()))
    except (OSError, ValueError, fw.FabricError) as exc:
        print(f"enclave-fabric-agent: refused: {exc}", file=sys.stderr)
        return 1
    report = FabricAgent(build_sm(args), Path(args.state_dir), settle=args.settle).run_pass(desired)
    print(json.dumps(report, indent=1))
    return 1 if report[fw.ERRORS] else 0


def build_parser() -> argparse.ArgumentParser:
    """Argument parser for every subcommand (flags override the config file)."""
    ap = argparse.ArgumentParser(prog="enclave-fabric-agent")
    ap.add_argument("--config", type=Path, default=DEFAULT_CONFIG)
    for name in DEFAULTS:
        ap.add_argument(f"--{name.replace('_', '-')}", dest=name)
    ap.add_argument("--cafile")
    ap.add_argument("--settle", type=float, default=30.0, help="seconds a pass waits for a change to be programmed")
    ap.add_argument("-v", "--verbose", action="store_true")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("join")
    p.add_argument("--server", required=True)
    p.add_argument("--token", required=True)
    p.add_argument("--hostname")
    p.set_defaults(func=cmd_join)
    p = sub.add_parser("run")
    p.add_argument("--interval", type=float, default=10.0)
    p.set_defaults(func=cmd_run)
    sub.add_parser("once").set_defaults(func=cmd_once)
    p = sub.add_parser("apply")
    p.add_argument("--file", required=True)
    p.set_defaults(func=cmd_apply)
    return ap


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    args = build_parser().parse_args(argv)
    try:
        values = settings(args.config)
    except (OSError, configparser.Error, config.ConfigError) as exc:
        print(f"enclave-fabric-agent: {exc}", file=sys.stderr)
        return 1
    for name, value in values.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO, format="%(asctime)s %(levelname)s %(message)s"
    )
    try:
        return args.func(args)
    except (OSError, config.ConfigError) as exc:  # a missing password file, a bad kind, an unreadable state
        print(f"enclave-fabric-agent: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
