"""`enclave-agent` command line."""

# Each subcommand imports what it needs when it runs: `enter` and `pkey` start for every login (PAM)
# and every task of a Slurm job step (SPANK), so they must not pay for the HTTP client, TLS and the
# reconcile loop that only `join`, `run` and `apply` use.
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path

from . import config


def cmd_join(args: argparse.Namespace) -> int:
    """Exchange a one-time token for this node's credential (stored 0600)."""
    import socket
    import time
    from dataclasses import asdict

    from . import credential, kernel
    from .client import join

    caps = asdict(kernel.probe())
    data = join(
        args.server,
        args.token,
        args.hostname or socket.gethostname(),
        caps,
        cafile=args.cafile,
        interfaces=kernel.interfaces(),
    )
    args.state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    cred = credential.Credential(args.server, data["node"], data["credential"])
    if isinstance(data.get("expires_in"), int | float):
        cred = cred.renewed(data["credential"], time.time(), float(data["expires_in"]))
    credential.save(args.state_dir / "credential.json", cred)
    print(f"joined as node {data['node']}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    """The reconcile loop against the portal."""
    from . import credential
    from .agent import Agent
    from .client import PortalClient
    from .poll import loop

    path = args.state_dir / "credential.json"
    cred = credential.load(path)
    client = PortalClient(cred.server, cred.node, cred.credential, cafile=args.cafile)
    loop(Agent(args.state_dir, full_every=args.full_every), client, wait=args.wait, credential_file=path)
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    """One pass from a file (tests, benchmarks, break-glass); a refused document changes nothing."""
    from .agent import Agent
    from .state import StateError, loads

    try:
        desired = loads(Path(args.file).read_text())
    except StateError as exc:
        print(f"enclave-agent: {exc}", file=sys.stderr)
        return 1
    report = Agent(args.state_dir).run_pass(desired, full=True)
    print(json.dumps(report.to_dict(), indent=1))
    return 0 if report.ok() else 1


def cmd_enter(args: argparse.Namespace) -> int:
    """Run a command as --uid (or, with --pam/--pid, a running session) in the user's tenant VRF."""
    from .session import SessionRefused, exec_in_vrf, move_pid, pam_session, scrub_environment

    if args.pkey and args.pid is None:
        print("enclave-agent: enter --pkey needs --pid (the Slurm task hook)", file=sys.stderr)
        return 2
    given = scrub_environment()  # nothing below may depend on the caller's environment
    try:
        if args.pam:
            pam_session(args.state_dir, given)
            return 0
        if args.pid is not None:
            uid = args.uid if args.uid is not None else os.stat(f"/proc/{args.pid}").st_uid
            tenant = move_pid(args.pid, uid, args.state_dir)
            if args.pkey:  # the SPANK plugin's task hook: one agent start per task, not two
                print(tenant.pkey or "")
            return 0
        argv = args.argv[1:] if args.argv[:1] == ["--"] else args.argv
        exec_in_vrf(args.uid if args.uid is not None else os.getuid(), argv or ["sh"], args.state_dir, given)
    except SessionRefused as exc:
        print(f"enclave-agent: session refused: {exc}", file=sys.stderr)
        return 1
    return 0


def cmd_pkey(args: argparse.Namespace) -> int:
    """Print the partition key of --uid's tenant on this node (empty when it has none): the SPANK plugin's."""
    from .session import SessionRefused, scrub_environment, tenant_pkey

    scrub_environment()  # run as root by slurmstepd: nothing below may depend on its environment
    try:
        print(tenant_pkey(args.uid, args.state_dir) or "")
    except SessionRefused as exc:
        print(f"enclave-agent: {exc}", file=sys.stderr)
        return 1
    return 0


def cmd_teardown(args: argparse.Namespace) -> int:
    """Remove every link, route and nftables table the agent owns."""
    from dataclasses import asdict

    from . import kernel

    res = kernel.teardown()
    for name in ("desired.json", "status.json"):
        (args.state_dir / name).unlink(missing_ok=True)
    print(json.dumps(asdict(res)))
    return 0 if not res.node_errors else 1


def cmd_capabilities(args: argparse.Namespace) -> int:
    """Print what the kernel supports."""
    from dataclasses import asdict

    from . import kernel

    caps = kernel.probe()
    print(json.dumps(asdict(caps)))
    return 0 if caps.vrf else 2


def build_parser() -> argparse.ArgumentParser:
    """Argument parser for every subcommand."""
    ap = argparse.ArgumentParser(prog="enclave-agent")
    ap.add_argument(
        "--config",
        type=Path,
        default=config.DEFAULT_CONFIG,
        help="root-owned file naming the state directory ([agent] state_dir = ...)",
    )
    ap.add_argument("--state-dir", type=Path, help="overrides the config file")
    ap.add_argument("--cafile")
    ap.add_argument("-v", "--verbose", action="store_true")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("join")
    p.add_argument("--server", required=True)
    p.add_argument("--token", required=True)
    p.add_argument("--hostname")
    p.set_defaults(func=cmd_join)
    p = sub.add_parser("run")
    p.add_argument("--wait", type=int, default=30)
    p.add_argument("--full-every", type=float, default=300.0)
    p.set_defaults(func=cmd_run)
    p = sub.add_parser("apply")
    p.add_argument("--file", required=True)
    p.set_defaults(func=cmd_apply)
    p = sub.add_parser("enter")
    p.add_argument("--uid", type=int)
    p.add_argument("--pam", action="store_true", help="pam_exec session hook: move the parent")
    p.add_argument("--pid", type=int, help="move this running process (Slurm task hook)")
    p.add_argument("--pkey", action="store_true", help="with --pid: then print the tenant's partition key, as `pkey`")
    p.add_argument("argv", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_enter)
    p = sub.add_parser("pkey", help="the tenant's InfiniBand partition key for a job step (0x0012, or empty)")
    p.add_argument("--uid", type=int, required=True)
    p.set_defaults(func=cmd_pkey)
    sub.add_parser("teardown").set_defaults(func=cmd_teardown)
    sub.add_parser("capabilities").set_defaults(func=cmd_capabilities)
    return ap


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    args = build_parser().parse_args(argv)
    try:
        args.state_dir = args.state_dir or config.state_dir(args.config)
    except (OSError, config.ConfigError) as exc:
        print(f"enclave-agent: {exc}", file=sys.stderr)
        return 1
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO, format="%(asctime)s %(levelname)s %(message)s"
    )
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
