#!/usr/bin/env python3
"""Build a tiny initramfs around a pinned Debian kernel and run a command in a QEMU (TCG) guest."""

from __future__ import annotations

import argparse
import gzip
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# Pinned kernel: the VRF suite must run on a kernel that has CONFIG_NET_VRF (the host lacks it).
KERNEL_PKG = "linux-image-6.1.0-50-amd64"
KERNEL_VERSION = "6.1.176-1"
KREL = "6.1.0-50-amd64"
PROJECT = Path(__file__).resolve().parents[2]  # the checkout, wherever it was cloned
CACHE = Path(os.environ.get("ENCLAVE_GUEST_CACHE", "/var/cache/enclave-vrf-guest"))
MODULES = [
    "crc32c_generic",
    "vrf",
    "vxlan",
    "veth",
    "bridge",
    "dummy",
    "9p",
    "9pnet_virtio",
    "virtio_pci",
    "virtio_net",
    "nf_tables",
    "nft_nat",
    "nft_chain_nat",
    "nft_ct",
    "nft_masq",
    "nft_reject_inet",
    "nft_fib_inet",
    "nft_limit",
    "nft_log",
    "nf_log_syslog",
    "nfnetlink",
    "nf_conntrack",
    "nf_nat",
]
INIT = r"""#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for m in $(cat /modules.order); do insmod /mods/$m || echo "insmod $m failed"; done
H=/host
mkdir -p $H
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 hostroot $H
mount -t proc proc $H/proc; mount -t sysfs sys $H/sys; mount -o bind /dev $H/dev
mount -t devpts devpts $H/dev/pts 2>/dev/null
mount -t tmpfs tmp $H/tmp; mount -t tmpfs run $H/run
mount -t cgroup2 none $H/sys/fs/cgroup 2>/dev/null
mkdir -p $H/tmp/job
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 job $H/tmp/job
# The checkout may live under /tmp or /run, which the tmpfs mounts above hide: mount it again.
P=$(sed -n 's/.*enclave_project=\([^ ]*\).*/\1/p' /proc/cmdline)
if [ -n "$P" ]; then
  mkdir -p $H$P 2>/dev/null
  mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 project $H$P
fi
chroot $H /bin/sh -c 'ip link set lo up; cd /tmp/job && HOME=/tmp /bin/sh ./cmd.sh' \
  > /dev/ttyS0 2>&1
echo "RC=$?" > /dev/ttyS0
sync
poweroff -f
"""


def kernel_dir() -> Path:
    """Return the extracted pinned kernel package, downloading it once with apt-get."""
    out = CACHE / f"{KERNEL_PKG}_{KERNEL_VERSION}"
    if (out / "boot" / f"vmlinuz-{KREL}").exists():
        return out
    CACHE.mkdir(parents=True, exist_ok=True)
    deb = CACHE / f"{KERNEL_PKG}_{KERNEL_VERSION}_amd64.deb"
    if not deb.exists():
        subprocess.run(["apt-get", "download", f"{KERNEL_PKG}={KERNEL_VERSION}"], cwd=CACHE, check=True)
    subprocess.run(["dpkg-deb", "-x", str(deb), str(out)], check=True)
    return out


def module_order(kdir: Path, wanted: list[str]) -> list[str]:
    """Resolve dependencies from each module's modinfo 'depends=' (no depmod here)."""
    mroot = kdir / "lib" / "modules" / KREL
    by_name = {p.name[:-3].replace("-", "_"): p for p in mroot.rglob("*.ko")}
    order: list[str] = []

    def visit(name: str) -> None:
        path = by_name.get(name.replace("-", "_"))
        if path is None or str(path.relative_to(mroot)) in order:
            return
        found = re.search(rb"\0depends=([^\0]*)\0", path.read_bytes())
        for dep in filter(None, (found.group(1).decode().split(",") if found else [])):
            visit(dep)
        order.append(str(path.relative_to(mroot)))

    for name in wanted:
        visit(name)
    return order


def write_newc(root: Path, out: Path) -> None:
    """Write root as a gzipped newc cpio archive (no cpio binary on this machine)."""

    def entry(f, name: str, st: os.stat_result, data: bytes, ino: int) -> None:
        fields = [ino, st.st_mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name) + 1, 0]
        f.write(b"070701" + b"".join(b"%08x" % v for v in fields))
        f.write(name.encode() + b"\0")
        f.write(b"\0" * ((4 - (110 + len(name) + 1) % 4) % 4))
        f.write(data)
        f.write(b"\0" * ((4 - len(data) % 4) % 4))

    with gzip.open(out, "wb", compresslevel=1) as f:
        ino = 1
        for path in sorted(root.rglob("*")):
            rel = str(path.relative_to(root))
            st = path.lstat()
            data = b""
            if path.is_symlink():
                data = os.readlink(path).encode()
            elif path.is_file():
                data = path.read_bytes()
            entry(f, rel, st, data, ino)
            ino += 1
        entry(f, "TRAILER!!!", os.stat_result((0,) * 10), b"", 0)


def build() -> tuple[Path, Path]:
    """Build (or reuse) the initramfs; return (vmlinuz, initramfs)."""
    kdir = kernel_dir()
    vmlinuz = kdir / "boot" / f"vmlinuz-{KREL}"
    # Named by what goes into it: checkouts with other modules or another init share the cache.
    recipe = hashlib.sha256(("\n".join(MODULES) + INIT).encode()).hexdigest()[:12]
    initrd = CACHE / f"initramfs-{KREL}-{recipe}.gz"
    if initrd.exists():
        return vmlinuz, initrd
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for d in ("bin", "proc", "sys", "dev", "mods", "host"):
            (root / d).mkdir()
        shutil.copy(shutil.which("busybox") or "/bin/busybox", root / "bin" / "busybox")
        mroot = kdir / "lib" / "modules" / KREL
        order = module_order(kdir, MODULES)
        for mod in order:
            shutil.copy(mroot / mod, root / "mods" / Path(mod).name)
        (root / "modules.order").write_text("\n".join(Path(m).name for m in order) + "\n")
        (root / "init").write_text(INIT)
        (root / "init").chmod(0o755)
        partial = initrd.with_suffix(f".{os.getpid()}.tmp")
        write_newc(root, partial)
        os.replace(partial, initrd)  # other checkouts may be booting from the cached one
    return vmlinuz, initrd


PORTAL = "10.0.2.100"  # where a networked guest reaches the forwarded port of this host's loopback


def qemu_argv(job: Path, mem: int, forward: int | None = None) -> list[str]:
    """The QEMU command line: host root read-only, job dir writable; with forward, a user-mode NIC
    that reaches nothing but this host's 127.0.0.1:forward, as PORTAL:forward."""
    vmlinuz, initrd = build()
    cmd = [
        "qemu-system-x86_64",
        "-accel",
        "tcg",
        "-m",
        str(mem),
        "-smp",
        "1",
        "-nographic",
        "-no-reboot",
        "-kernel",
        str(vmlinuz),
        "-initrd",
        str(initrd),
        # no_timer_check: under a loaded host, TCG misses the IO-APIC timer check and panics.
        "-append",
        f"console=ttyS0 quiet panic=-1 no_timer_check rdinit=/init enclave_project={PROJECT}",
        "-virtfs",
        "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap",
        "-virtfs",
        f"local,path={job},mount_tag=job,security_model=none",
        "-virtfs",
        f"local,path={PROJECT},mount_tag=project,security_model=none,readonly=on,multidevs=remap",
    ]
    if forward is not None:  # restrict=on: no other address or port of the host or beyond
        fwd = f"guestfwd=tcp:{PORTAL}:{forward}-cmd:socat STDIO TCP:127.0.0.1:{forward}"
        cmd += ["-netdev", f"user,id=n0,restrict=on,{fwd}", "-device", "virtio-net-pci,netdev=n0"]
    return cmd


def run(script: str, timeout: float = 900, mem: int = 1536) -> tuple[int, str]:
    """Boot the guest, run script (sh) with the host root as /, return (rc, console log)."""
    with tempfile.TemporaryDirectory(prefix="vrfguest-") as job:
        Path(job, "cmd.sh").write_text(script)
        # Ahead of the processes that share the CPUs with it (root only; others keep their share): one
        # emulated CPU runs the whole suite, so every slice it loses lengthens the run by as much.
        first = ["nice", "-n", "-5"] if os.geteuid() == 0 else []
        try:
            proc = subprocess.run([*first, *qemu_argv(Path(job), mem)], capture_output=True, text=True,
                                  errors="replace", timeout=timeout, stdin=subprocess.DEVNULL)  # fmt: skip
            log = proc.stdout + proc.stderr
        except subprocess.TimeoutExpired as exc:
            out = exc.stdout or b""
            log = out.decode(errors="replace") if isinstance(out, bytes) else out
            return 124, log + "\nTIMEOUT\n"
    marks = re.findall(r"^RC=(\d+)\s*$", log, re.M)
    return (int(marks[-1]) if marks else 125), log


NET_UP = "ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0 && ip route add default via 10.0.2.2\n"


def serve(script: str, job: Path, forward: int, mem: int = 768) -> int:
    """Boot a guest that reaches this host's port forward and runs script until it ends (the demo
    node); its console goes to stdout."""
    job.mkdir(parents=True, exist_ok=True)
    (job / "cmd.sh").write_text(NET_UP + script)
    os.execvp("qemu-system-x86_64", qemu_argv(job, mem, forward))  # noqa: S606 - our own fixed argv


def main() -> int:
    """CLI: build | run -c 'commands' | serve --forward PORT --job-dir DIR -c 'commands' (no timeout)."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("action", choices=["build", "run", "serve"])
    ap.add_argument("-c", "--command", default="uname -a; ip link add name t type vrf table 10 && echo VRF-OK")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--job-dir", type=Path, help="serve: the guest's writable /tmp/job (kept)")
    ap.add_argument("--forward", type=int, help=f"serve: this host's 127.0.0.1 port the guest reaches at {PORTAL}")
    args = ap.parse_args()
    if args.action == "build":
        print(*build())
        return 0
    if args.action == "serve":
        return serve(args.command, args.job_dir or Path(tempfile.mkdtemp(prefix="vrfguest-")), args.forward)
    rc, log = run(args.command, timeout=args.timeout)
    sys.stdout.write(log)
    return rc


if __name__ == "__main__":
    sys.exit(main())
