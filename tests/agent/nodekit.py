"""Two nodes as users meet them, for the VRF suite: accounts, sshd with the PAM line, Slurm, Open MPI.

Every daemon and every login runs in its node's network namespace (topo.py), in a private mount
namespace that binds the test accounts over /etc/passwd, /etc/group and /etc/shadow and the node's
own agent state directory over one common path (as /var/lib/enclave-agent is local to each real
node), and in a UTS namespace named after the node (Open MPI and Slurm tell nodes apart by host
name). Nothing leaks into the machine the suite runs on: the QEMU guest, or a host with VRF.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pamkit
from topo import AGENT_BOOT, NOSITE, SUBNET, Topology, sh, wait_for

ROOT = Path(__file__).resolve().parents[2]
RING = Path(__file__).with_name("mpi_ring.c")
MPI_RING_BUILD = ("mpicc", "-O1", "-Wall", "-Werror")
A, B = 70001, 70002  # above 65536 on purpose: the paper's table numbering broke there
USERS = {"encla": 65501, "enclb": 65502, "enclc": 65503}  # A's user, B's user, a user of no tenant
UIDS = {A: [65534, USERS["encla"]], B: [65533, USERS["enclb"]]}  # what the guest nodes realise
NODES = {"n1": f"{SUBNET}.1", "n2": f"{SUBNET}.2"}
MPI_FLAGS = (
    "--mca btl tcp,self --mca pml ob1 --mca btl_tcp_if_include 10.77.0.0/24 "
    "--mca oob_tcp_if_include 10.77.0.0/24 --mca mpi_yield_when_idle 1"
)
USER_SSH_CONFIG = """Host *
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
  BatchMode yes
  ConnectTimeout 60
"""


def _slurm_conf(d: Path) -> str:
    return f"""ClusterName=enclguest
SlurmctldHost=n1({NODES["n1"]})
SlurmctldPort=6817
SlurmdPort=6818
SlurmUser=root
AuthType=auth/none
CredType=cred/none
StateSaveLocation={d}/ctld
SlurmdSpoolDir={d}/spool-%n
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd-%n.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd-%n.log
PlugStackConfig={d}/plugstack.conf
SlurmdParameters=config_overrides
# Slurm 22.05's default select/linear hands out whole nodes: jobs of two tenants could never
# share one, as they do on real clusters and in the MPI isolation test.
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
NodeName=n1 NodeAddr={NODES["n1"]} CPUs=4 State=UNKNOWN
NodeName=n2 NodeAddr={NODES["n2"]} CPUs=4 State=UNKNOWN
PartitionName=main Nodes=n1,n2 Default=YES State=UP MaxTime=10
"""


def _sshd_config(base: Path) -> str:
    return f"""Port 22
ListenAddress 0.0.0.0
HostKey {base}/ssh/host_ed25519
PidFile {base}/run/sshd-%n.pid
UsePAM yes
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin no
StrictModes no
SetEnv SLURM_CONF={base}/slurm/slurm.conf
"""


@dataclass
class Site:
    """Accounts, built programs, sshd on both nodes, a Slurm cluster; stop() removes all of it."""

    net: Topology
    base: Path
    procs: list[subprocess.Popen] = field(default_factory=list)
    logs: list = field(default_factory=list)
    holders: dict[str, subprocess.Popen] = field(default_factory=dict)

    # -- namespaces ------------------------------------------------------------------------

    def hold(self, role: str) -> None:
        """Start the process that holds a role's namespaces: its netns, and a mount and UTS namespace with
        the test accounts bound over /etc, the node's state directory and sshd's PAM file, named after it.

        Every command then enters them with one nsenter: building them per command took ten process
        starts, each a fraction of a second under the VRF guest's emulated CPU."""
        binds = [(self.base / "etc" / f, f"/etc/{f}") for f in ("passwd", "group", "shadow", "hosts")]
        if role in NODES:
            binds.append((Path(f"/tmp/{self.net.prefix}-{role}"), self.base / "state"))
            binds.append((self.base / "etc/pam-sshd", "/etc/pam.d/sshd"))
        mounts = "; ".join(f"mount --bind {src} {dst}" for src, dst in binds)
        script = f"set -e; {mounts}; hostname {role}; echo READY; exec sleep infinity"
        unshare = ["unshare", "-m", "-u", "--propagation", "private", "sh", "-c", script]
        proc = subprocess.Popen(["ip", "netns", "exec", self.net.ns(role), *unshare], stdout=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, text=True)  # fmt: skip
        self.holders[role] = proc  # execs all the way down: its pid is the sleep's, inside the namespaces
        assert proc.stdout and proc.stdout.readline().strip() == "READY", f"the namespaces of {role}"

    def argv(self, role: str, argv: list[str], user: str | None = None) -> list[str]:
        """argv run in the role's namespaces (hold()), as root or as a test user."""
        cmd = [
            "nsenter",
            "-t",
            str(self.holders[role].pid),
            "-n",
            "-m",
            "-u",
            "--root",
            "--wd",
        ]  # its root: the guest chroots
        if user is not None:
            uid = USERS[user]
            cmd += ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--init-groups", "--reset-env"]
        return cmd + argv

    def run(
        self, role: str, command: str, user: str | None = None, timeout: float = 300
    ) -> subprocess.CompletedProcess:
        """A shell command on a node (as root, or as a user without any PAM session)."""
        argv = ["env", f"SLURM_CONF={self.slurm_conf}", "sh", "-c", command]  # setpriv clears env
        return self._complete(self.argv(role, argv, user), timeout)

    def _complete(self, argv: list[str], timeout: float) -> subprocess.CompletedProcess:
        """Run argv to completion; a hang fails with the daemons' logs instead of a bare timeout."""
        env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
        try:
            return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False, env=env,
                                  stdin=subprocess.DEVNULL)  # fmt: skip
        except subprocess.TimeoutExpired as exc:
            raise AssertionError(f"{argv[-1]!r} hung: {exc.stdout!r} {exc.stderr!r}\n{self.daemon_logs()}") from None

    def ssh(self, user: str, node: str, command: str, timeout: float = 600) -> subprocess.CompletedProcess:
        """A user logs in from the outside host to a node through sshd (and PAM) and runs command."""
        return self._complete(self.argv("out", ["ssh", NODES[node], command], user), timeout)

    def spawn(self, name: str, role: str, argv: list[str]) -> None:
        """Start a daemon in a node; its output goes to base/<name>.out."""
        log = open(self.base / f"{name}.out", "w")  # noqa: SIM115 (closed in stop())
        self.logs.append(log)
        self.procs.append(
            subprocess.Popen(self.argv(role, argv), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        )

    # -- setup -----------------------------------------------------------------------------

    @property
    def agent(self) -> Path:
        return self.base / "bin" / "enclave-agent"

    @property
    def slurm_conf(self) -> Path:
        return self.base / "slurm" / "slurm.conf"

    def start(self) -> Site:
        """Accounts, programs, sshd with the PAM line on both nodes, Slurm."""
        for d in ("etc", "ssh", "run", "state", "slurm/ctld", "slurm/spool-n1", "slurm/spool-n2", "bin", "jobs"):
            (self.base / d).mkdir(parents=True, exist_ok=True)
        (self.base / "jobs").chmod(0o1777)
        self._accounts()
        self._build()
        Path("/run/sshd").mkdir(exist_ok=True)  # sshd's privilege separation directory
        sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(self.base / "ssh/host_ed25519"))
        self.pam_line(enabled=True)
        for role in (*NODES, "out"):
            self.hold(role)
        (self.base / "etc/sshd_config").write_text(_sshd_config(self.base))
        for role in NODES:
            self.spawn(
                f"sshd-{role}",
                role,
                ["/usr/sbin/sshd", "-D", "-e", "-f", str(self.base / "etc/sshd_config")],
            )
        self._slurm()
        for role in NODES:
            wait_for(lambda r=role: self._listening(r, 22), f"sshd on {role}", timeout=120)
        return self

    def pam_line(self, enabled: bool) -> None:
        """Debian's /etc/pam.d/sshd plus the documented line, or without it (read per login)."""
        line = (
            f"session required pam_exec.so quiet type=open_session log={self.base}/run/pam_exec.log "
            f"{self.base}/bin/enclave-pam-exec {self.agent} --state-dir {self.base}/state enter --pam\n"
        )
        text = Path("/etc/pam.d/sshd").read_text() + (line if enabled else "")
        with open(self.base / "etc/pam-sshd", "w") as fh:  # same inode: it is bind-mounted
            fh.write(text)

    def _accounts(self) -> None:
        etc = self.base / "etc"
        passwd = [x for x in Path("/etc/passwd").read_text().splitlines() if x.split(":")[0] not in USERS]
        group = [x for x in Path("/etc/group").read_text().splitlines() if x.split(":")[0] not in USERS]
        shadow = [x for x in Path("/etc/shadow").read_text().splitlines() if x.split(":")[0] not in USERS]
        for name, uid in USERS.items():
            home = self.base / "home" / name
            passwd.append(f"{name}:x:{uid}:{uid}::{home}:/bin/sh")
            group.append(f"{name}:x:{uid}:")
            shadow.append(f"{name}:*:19000:0:99999:7:::")
            (home / ".ssh").mkdir(parents=True)
            sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(home / ".ssh/id_ed25519"))
            shutil.copy(home / ".ssh/id_ed25519.pub", home / ".ssh/authorized_keys")
            (home / ".ssh/config").write_text(USER_SSH_CONFIG)
            sh("chown", "-R", f"{uid}:{uid}", str(home))
        (self.base / "home").chmod(0o755)
        hosts = [*Path("/etc/hosts").read_text().splitlines(), *(f"{a} {n}" for n, a in NODES.items())]
        for name, lines in (("passwd", passwd), ("group", group), ("shadow", shadow), ("hosts", hosts)):
            (etc / name).write_text("\n".join(lines) + "\n")
        (etc / "shadow").chmod(0o640)

    def _build(self) -> None:
        """The PAM launcher, the SPANK plugin and the MPI program, as a site would build them, and the
        agent's command for them (without `site`: topo.AGENT_BOOT)."""
        out = self.base / "bin"
        out.mkdir(parents=True, exist_ok=True)
        self.agent.write_text(f"#!{' '.join(NOSITE)}\n{AGENT_BOOT}\n")
        self.agent.chmod(0o755)
        pamkit.build_launcher(out)
        if not pamkit.prebuilt("enclave_vrf.so", out):
            sh("make", "-s", "-C", str(ROOT / "agent/slurm"), f"OUT={out}")
        if not pamkit.prebuilt("mpi_ring", out):
            sh(*MPI_RING_BUILD, "-o", str(out / "mpi_ring"), str(RING))

    def _slurm(self) -> None:
        d = self.base / "slurm"
        self.slurm_conf.write_text(_slurm_conf(d))
        # `ip netns exec` mounts a fresh sysfs, so slurmd finds no cgroup file system to
        # autodetect; no cgroup plugin is used (proctrack/linuxproc, task/none) but one must load.
        (d / "cgroup.conf").write_text("CgroupPlugin=cgroup/v1\n")
        self.plugstack(enabled=True)
        self.spawn("slurmctld", "n1", ["slurmctld", "-D", "-i", "-f", str(self.slurm_conf)])
        for role in NODES:
            self.spawn(f"slurmd-{role}", role, ["slurmd", "-D", "-N", role, "-f", str(self.slurm_conf)])
        wait_for(self._slurm_idle, "both slurm nodes to become idle", timeout=240)

    def plugstack(self, enabled: bool) -> None:
        """The documented plugstack.conf line, or none (slurmstepd rereads it for every step)."""
        line = f"required {self.base}/bin/enclave_vrf.so agent={self.agent} state_dir={self.base}/state\n"
        (self.base / "slurm/plugstack.conf").write_text(line if enabled else "\n")

    def _slurm_idle(self) -> bool:
        out = self.run("n1", "sinfo -h -N -o '%N %t'", timeout=60)
        states = dict(x.split() for x in out.stdout.splitlines() if len(x.split()) == 2)
        if any(p.poll() is not None for p in self.procs):
            raise AssertionError(f"a daemon exited: {self.daemon_logs()}")
        return states == {"n1": "idle", "n2": "idle"}

    def _listening(self, role: str, port: int) -> bool:
        out = self.net.ex(role, "ss", "-ltnH", f"sport = :{port}", check=False)
        return bool(out.stdout.strip())

    # -- jobs ------------------------------------------------------------------------------

    def wait_file(self, path: Path, text: str, timeout: float = 900) -> str:
        """Wait until path contains text (a job's output); return the contents."""
        try:
            wait_for(lambda: path.exists() and text in path.read_text(), f"{text!r} in {path}", timeout=timeout)
        except AssertionError as exc:
            queue = self.run("n1", "squeue -o '%i %u %T %M %R'", timeout=120).stdout
            have = path.read_text() if path.exists() else "(no output yet)"
            raise AssertionError(f"{exc}\n{have}\n{queue}\n{self.daemon_logs()}") from None
        return path.read_text()

    def listeners(self, role: str, user: str) -> list[int]:
        """TCP ports a user's processes listen on in a node on all IPv4 addresses (read as root).

        ss cannot show the VRF of a socket bound by the VRF's cgroup program, so the owner tells
        whose they are; the probes then show which VRF they answer in.
        """
        out = self.net.ex(role, "ss", "-ltnpeH", "src", "0.0.0.0").stdout  # noqa: S104 (a filter)
        return sorted({int(line.split()[3].rsplit(":", 1)[1]) for line in out.splitlines()
                       if f" uid:{USERS[user]} " in line})  # fmt: skip

    def pam_log(self) -> str:
        """What the PAM line's program wrote (the agent's refusals)."""
        log = self.base / "run/pam_exec.log"
        return log.read_text() if log.exists() else ""

    def daemon_logs(self) -> str:
        """The daemons' output and logs, for failure messages."""
        files = [*self.base.glob("*.out"), *(self.base / "slurm").glob("*.log")]
        return "\n".join(f"--- {p.name}\n{p.read_text()[-1500:]}" for p in files if p.exists())

    def stop(self) -> None:
        """Stop the daemons and remove every file."""
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for holder in self.holders.values():
            holder.kill()
            holder.wait()
        for log in self.logs:
            log.close()
        shutil.rmtree(self.base, ignore_errors=True)


def have_tools() -> str:
    """'' when sshd, Slurm, Open MPI and the build tools are installed, else what is missing."""
    tools = (
        "/usr/sbin/sshd",
        "ssh",
        "ssh-keygen",
        "slurmctld",
        "slurmd",
        "srun",
        "sbatch",
        "sinfo",
        "mpicc",
        "mpirun",
        "setpriv",
        "ss",
        "unshare",
        "nsenter",
        "gcc",
        "make",
        "socat",
    )
    missing = [t for t in tools if not shutil.which(t)]
    if not Path("/usr/include/slurm/spank.h").exists():
        missing.append("libslurm-dev")
    return ", ".join(missing)


def quote(cmd: str) -> str:
    """Shell-quote one command line for ssh."""
    return shlex.quote(cmd)
