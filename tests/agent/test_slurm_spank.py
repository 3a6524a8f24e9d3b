"""The enclave_vrf SPANK plugin: built against Debian's spank.h, then run by a real slurmd."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
from enclave_agent import kernel
from topo import desired, sh, wait_for

SRC = Path(__file__).resolve().parents[2] / "agent" / "slurm"
AGENT = Path(sys.executable).with_name("enclave-agent")
NOBODY = 65534
NODE = "enclavenode"
TENANT = 70001
SLURM = ("slurmctld", "slurmd", "srun", "sinfo")

needs_header = pytest.mark.skipif(
    not Path("/usr/include/slurm/spank.h").exists(), reason="libslurm-dev is not installed (deps/apt.txt)"
)


def build(out: Path) -> subprocess.CompletedProcess:
    """`make -C agent/slurm OUT=out`: the documented build, kept out of the source tree."""
    return subprocess.run(["make", "-s", "-C", str(SRC), f"OUT={out}"], capture_output=True, text=True, check=False)


@needs_header
def test_it_compiles_without_warnings_against_the_real_spank_header(tmp_path):
    out = build(tmp_path)
    assert out.returncode == 0, out.stderr
    assert "warning" not in out.stderr
    symbols = sh("nm", "-D", "--defined-only", str(tmp_path / "enclave_vrf.so")).stdout
    assert "slurm_spank_task_init_privileged" in symbols


# -- a real one-node cluster: slurmctld + slurmd on localhost, auth/none, all under a tmp dir --


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _slurm_conf(d: Path) -> str:
    host = socket.gethostname().split(".")[0]  # slurmctld must recognise itself by this name
    return f"""ClusterName=enclavetest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={_free_port()}
SlurmdPort={_free_port()}
SlurmUser=root
AuthType=auth/none
CredType=cred/none
StateSaveLocation={d}/ctld
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd.log
PlugStackConfig={d}/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
MailProg=/bin/true
NodeName={NODE} NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN
PartitionName=main Nodes={NODE} Default=YES State=UP MaxTime=5
"""


def _not_ready_state(d: Path) -> None:
    """d/state as the real agent writes it on this kernel: the tenant is not ready (no VRF)."""
    state, ns = d / "state", f"es{uuid.uuid4().hex[:8]}"
    (d / "desired.json").write_text(json.dumps(desired("n1", 1, [TENANT], uids={TENANT: [NOBODY]})))
    sh("ip", "netns", "add", ns)  # its own netns: apply must not touch the host's nftables
    try:
        sh(
            "ip",
            "netns",
            "exec",
            ns,
            str(AGENT),
            "--state-dir",
            str(state),
            "apply",
            "--file",
            str(d / "desired.json"),
            check=False,
        )
    finally:
        sh("ip", "netns", "del", ns, check=False)
    status = json.loads((state / "status.json").read_text())
    assert status["tenants"][str(TENANT)]["status"] == "not_ready", status


class Cluster:
    """Daemons and files of one throwaway cluster; stop() always leaves nothing behind."""

    def __init__(self, d: Path):
        self.dir, self.procs, self.logfiles, self.state = d, [], [], d / "state"
        self.env = {"PATH": os.environ["PATH"], "SLURM_CONF": str(d / "slurm.conf")}

    def start(self) -> Cluster:
        """Write the config, start slurmctld and slurmd, wait until the node is idle."""
        for sub in ("ctld", "spool"):
            (self.dir / sub).mkdir()
        (self.dir / "slurm.conf").write_text(_slurm_conf(self.dir))
        self.plugstack("")
        for argv in (["slurmctld", "-D", "-i"], ["slurmd", "-D", "-N", NODE]):
            log = open(self.dir / f"{argv[0]}.out", "w")  # noqa: SIM115 (closed in stop())
            self.logfiles.append(log)
            self.procs.append(subprocess.Popen(argv, env=self.env, stdout=log, stderr=log))
        wait_for(lambda: self._idle() or self._dead(), "the slurm node to become idle")
        assert not self._dead(), self.logs()
        return self

    def _idle(self) -> bool:
        out = subprocess.run(
            ["sinfo", "-h", "-N", "-o", "%t"], env=self.env, capture_output=True, text=True, check=False
        )
        return out.stdout.strip() == "idle"

    def _dead(self) -> bool:
        return any(p.poll() is not None for p in self.procs)

    def logs(self) -> str:
        """Daemon output, for failure messages."""
        return "\n".join(p.read_text()[-2000:] for p in self.dir.glob("slurm*.out"))

    def plugstack(self, line: str) -> None:
        """slurmstepd rereads plugstack.conf for every step, so tests may swap it freely."""
        (self.dir / "plugstack.conf").write_text(line + "\n")

    def srun(self, script: str) -> subprocess.CompletedProcess:
        """A one-task job step run by the unprivileged test user."""
        return subprocess.run(
            ["srun", "-N1", "-n1", "sh", "-c", script],
            env=self.env,
            cwd="/",
            user=NOBODY,
            group=NOBODY,
            extra_groups=[],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    def stop(self) -> None:
        """Stop the daemons (TERM, then KILL) and remove every file of the cluster."""
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for log in self.logfiles:
            log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def _missing_prerequisite() -> str:
    if os.geteuid() != 0:
        return "needs root to run slurmd and a network namespace"
    missing = [b for b in SLURM if shutil.which(b) is None]
    if missing:
        return f"{', '.join(missing)} not installed (apt: slurmctld slurmd slurm-client)"
    if kernel.probe().vrf:
        return "this kernel has VRF, so the agent cannot be made to refuse for lack of it"
    return ""


@pytest.fixture(scope="module")
def cluster():
    """One cluster for the module; built plugin and agent state live in its directory."""
    if why := _missing_prerequisite():
        pytest.skip(why)
    d = Path(tempfile.mkdtemp(prefix="enclave-slurm-"))
    d.chmod(0o755)  # the unprivileged srun must read slurm.conf
    c = Cluster(d)
    try:
        out = build(d)
        assert out.returncode == 0, out.stderr
        _not_ready_state(d)
        yield c.start()
    finally:
        c.stop()


@needs_header
def test_a_required_plugin_refuses_the_job_step_when_the_tenant_network_is_not_ready(cluster):
    cluster.plugstack(f"required {cluster.dir}/enclave_vrf.so agent={AGENT} state_dir={cluster.state}")
    out = cluster.srun("echo TASK-RAN")
    assert out.returncode != 0
    assert "TASK-RAN" not in out.stdout  # the user's command never started
    assert (
        f"enclave-agent: session refused: tenant {TENANT} network is not ready: kernel lacks VRF support"
    ) in out.stderr, out.stderr + cluster.logs()


@needs_header
def test_it_passes_the_job_uid_and_the_pids_of_slurmstepd_and_the_task_to_the_agent(cluster):
    """The real agent always refuses on this kernel, so a recording stand-in shows the calls."""
    record, argv_file = cluster.dir / "record-agent", cluster.dir / "argv"
    record.write_text(f'#!/bin/sh\necho "$PPID $(cat /proc/$PPID/comm) $@" >> {argv_file}\n')
    record.chmod(0o755)
    cluster.plugstack(f"required {cluster.dir}/enclave_vrf.so agent={record} state_dir=/st")
    out = cluster.srun("echo PID=$$")  # sh is exec'd in the task process itself
    assert out.returncode == 0, out.stderr + cluster.logs()
    task = out.stdout.strip().removeprefix("PID=")
    calls = [line.split() for line in argv_file.read_text().splitlines()]
    assert [c[2:] for c in calls] == [
        ["--state-dir", "/st", "enter", "--uid", str(NOBODY), "--pid", calls[0][0]],  # slurmstepd
        ["--state-dir", "/st", "enter", "--uid", str(NOBODY), "--pid", task, "--pkey"],  # and the key
    ]  # one agent start per task: the task's entry also answers the tenant's partition key
    assert calls[0][1] == "slurmstepd" and calls[0][0] != task  # first slurmstepd, then the task


@needs_header
def test_a_misspelt_plugin_argument_refuses_the_step_instead_of_being_ignored(cluster):
    cluster.plugstack(f"required {cluster.dir}/enclave_vrf.so agnet=/bin/true")
    out = cluster.srun("echo TASK-RAN")
    assert out.returncode != 0 and "TASK-RAN" not in out.stdout
    assert "unknown plugstack.conf argument 'agnet=/bin/true'" in out.stderr


def _stand_in(cluster, pkey_answer: str) -> Path:
    """An agent that lets every step in and answers `--pkey` with pkey_answer (the real one refuses here)."""
    path = cluster.dir / "pkey-agent"
    path.write_text(f'#!/bin/sh\ncase " $* " in *" --pkey "*) printf %s "{pkey_answer}";; esac\nexit 0\n')
    path.chmod(0o755)
    return path


@needs_header
def test_the_task_gets_its_tenants_partition_key_for_ucx_and_open_mpi(cluster):
    agent = _stand_in(cluster, "0x0012\n")
    cluster.plugstack(f"required {cluster.dir}/enclave_vrf.so agent={agent}")
    out = cluster.srun('echo "UCX=$UCX_IB_PKEY OMPI=$OMPI_MCA_btl_openib_pkey"')
    assert out.returncode == 0, out.stderr + cluster.logs()
    assert out.stdout.strip() == "UCX=0x0012 OMPI=0x8012"  # UCX takes the 15-bit key, openib the full member


@needs_header
def test_a_tenant_without_a_partition_runs_with_no_key_in_its_environment(cluster):
    agent = _stand_in(cluster, "")
    cluster.plugstack(f"required {cluster.dir}/enclave_vrf.so agent={agent}")
    out = cluster.srun('echo "UCX=${UCX_IB_PKEY-unset}"')
    assert out.returncode == 0, out.stderr + cluster.logs()
    assert out.stdout.strip() == "UCX=unset"


@pytest.mark.parametrize("answer", ["0x12", "0x0012; id", "0X0012", "0x7fff", "0x0012\\n0x0013"])
@needs_header
def test_a_malformed_partition_key_refuses_the_task(cluster, answer):
    agent = _stand_in(cluster, answer)
    cluster.plugstack(f"required {cluster.dir}/enclave_vrf.so agent={agent}")
    out = cluster.srun("echo TASK-RAN")
    assert out.returncode != 0 and "TASK-RAN" not in out.stdout
    assert "malformed partition key" in out.stderr + cluster.logs()
