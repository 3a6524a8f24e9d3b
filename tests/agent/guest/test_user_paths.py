"""The paper's remaining tests on a real VRF kernel: ssh, srun, sbatch and MPI across two nodes.

Users log in from the outside host through sshd and the documented PAM line, and run Slurm jobs
(real slurmctld and slurmd, the SPANK plugin in plugstack.conf) and Open MPI across both nodes;
each path is shown landing in the user's tenant VRF, with a negative control that removes the
PAM line or the plugin and a fail-closed check for a user who belongs to no tenant.
"""

import uuid
from pathlib import Path

import nodekit
import pytest
from nodekit import MPI_FLAGS, NODES, A, B, quote

VRF_A, VRF_B = f"vrf{A}", f"vrf{B}"
WHERE = 'echo "$(hostname) $(ip vrf identify $$)"'  # the node and the VRF of this shell


@pytest.fixture(scope="module")
def site(net):
    """Accounts, sshd with the PAM line, a Slurm cluster and the MPI program on both nodes."""
    missing = nodekit.have_tools()
    assert not missing, f"the guest suite needs {missing} (deps/apt.txt)"
    s = nodekit.Site(net, Path(f"/tmp/enclsite-{uuid.uuid4().hex[:8]}"))
    try:
        yield s.start()
    finally:
        s.stop()


def _lines(text: str, prefix: str = "") -> list[str]:
    return sorted(x.strip() for x in text.splitlines() if x.startswith(prefix))


def _probe(host: str, port: int) -> str:
    """A shell line printing what a TCP connection to host:port got back (socat, no Python)."""
    return f"echo hi | socat -t5 - TCP:{host}:{port},connect-timeout=3 2>/dev/null | head -c 7; echo"


# -- ssh ---------------------------------------------------------------------------------------


def test_an_ssh_login_lands_in_the_users_tenant_vrf_and_reaches_only_its_tenant(site, net):
    net.listen("n2", 5101, dev=VRF_A)
    net.listen("n2", 5102, dev=VRF_B)
    n2 = NODES["n2"]
    out = site.ssh("encla", "n1", f"{WHERE}; {_probe(n2, 5101)}; {_probe(n2, 5102)}")
    assert out.returncode == 0, out.stderr + site.daemon_logs()
    assert out.stdout.splitlines() == [f"n1 {VRF_A}", "echo:hi", ""]  # its listener, not B's
    out = site.ssh("enclb", "n2", WHERE)
    assert out.stdout.splitlines() == [f"n2 {VRF_B}"], out.stderr


def test_ssh_from_one_node_to_the_other_stays_in_the_tenants_vrf(site):
    out = site.ssh("encla", "n1", f"{WHERE}; ssh {NODES['n2']} {quote(WHERE)}")
    assert out.returncode == 0, out.stderr + site.daemon_logs()
    assert out.stdout.splitlines() == [f"n1 {VRF_A}", f"n2 {VRF_A}"]  # through A's VXLAN to n2


def test_without_the_pam_line_an_ssh_login_stays_in_the_default_vrf_so_the_test_can_fail(site):
    site.pam_line(enabled=False)
    try:
        out = site.ssh("encla", "n1", WHERE)
    finally:
        site.pam_line(enabled=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["n1 "]


def test_an_ssh_login_of_a_user_in_no_tenant_is_refused_before_the_command_runs(site):
    out = site.ssh("enclc", "n1", "echo COMMAND-RAN")
    assert out.returncode != 0 and "COMMAND-RAN" not in out.stdout
    assert "session refused: uid 65503 is not a member of any tenant" in site.pam_log(), site.daemon_logs()


# -- Slurm -------------------------------------------------------------------------------------


def _srun_where(nodes: int = 2) -> str:
    return f"srun -N{nodes} --ntasks-per-node=1 sh -c {quote(WHERE)}"


def test_srun_from_a_login_runs_the_steps_in_the_tenants_vrf_on_both_nodes(site):
    out = site.ssh("encla", "n1", _srun_where())
    assert out.returncode == 0, out.stderr + site.daemon_logs()
    assert _lines(out.stdout) == [f"n1 {VRF_A}", f"n2 {VRF_A}"]


def test_sbatch_runs_the_batch_script_and_its_steps_in_the_tenants_vrf(site):
    job = site.base / "jobs" / f"sbatch-{uuid.uuid4().hex[:6]}"
    script = f"echo batch $({WHERE}); {_srun_where()}; echo DONE"
    out = site.ssh("enclb", "n2", f"sbatch -N2 -o {job} --wrap {quote(script)}")
    assert out.returncode == 0 and "Submitted batch job" in out.stdout, out.stderr
    text = site.wait_file(job, "DONE")
    assert _lines(text) == sorted(["DONE", f"batch n1 {VRF_B}", f"n1 {VRF_B}", f"n2 {VRF_B}"]), text


def test_without_the_plugin_srun_and_sbatch_steps_run_in_the_default_vrf_so_the_tests_can_fail(site):
    job = site.base / "jobs" / f"noplugin-{uuid.uuid4().hex[:6]}"
    site.plugstack(enabled=False)
    try:  # submitted from outside any VRF: without the plugin, srun inside one could not work
        steps = site.run("n1", _srun_where(), user="encla")
        site.run("n1", f"sbatch -N1 -o {job} --wrap {quote(f'echo batch $({WHERE}); echo DONE')}", user="encla")
        text = site.wait_file(job, "DONE")
    finally:
        site.plugstack(enabled=True)
    assert _lines(steps.stdout) == ["n1", "n2"], steps.stderr
    assert _lines(text, "batch") == ["batch n1"]


def test_a_job_of_a_user_in_no_tenant_is_refused_on_every_node(site):
    out = site.run("n1", "srun -N2 --ntasks-per-node=1 echo TASK-RAN", user="enclc")
    assert out.returncode != 0 and "TASK-RAN" not in out.stdout
    assert "enclave-agent: session refused: uid 65503 is not a member of any tenant" in out.stderr


# -- Open MPI ----------------------------------------------------------------------------------
# Two batch jobs of mpi_ring (mpirun over Slurm, TCP between ranks) at once, one per tenant, both
# across both nodes: once both have run their ring and hold, each rank of each job tries to
# connect to every port B's job listens on (B's own ranks are the negative control), then both end.
# A's job keeps its own TCP listeners off B's ports, so only B's job can answer there.
A_FLAGS = "--mca btl_tcp_port_min_v4 30000 --mca btl_tcp_port_range_v4 100"


def _mpi_job(site, user: str, login: str, hold: Path, ranks_per_node: int, flags: str = "") -> Path:
    """sbatch an mpirun of mpi_ring across both nodes from a login; return its output file."""
    job = site.base / "jobs" / f"mpi-{user}-{uuid.uuid4().hex[:6]}"
    script = f"mpirun {MPI_FLAGS} {flags} {site.base}/bin/mpi_ring --hold {hold}; echo EXIT=$?"
    out = site.ssh(user, login, f"sbatch -N2 --ntasks-per-node={ranks_per_node} -o {job} --wrap {quote(script)}")
    assert out.returncode == 0, out.stderr
    return job


@pytest.fixture(scope="module")
def mpi(site):
    """Output of B's job ("B") and A's job ("A"), and the ports B's job listened on ("ports")."""
    holds = {t: site.base / "jobs" / f"hold-{t}-{uuid.uuid4().hex[:6]}" for t in "AB"}
    jobs = {
        "B": _mpi_job(site, "enclb", "n2", holds["B"], 2),
        "A": _mpi_job(site, "encla", "n1", holds["A"], 1, A_FLAGS),
    }
    ports, targets = {}, ""
    try:
        for job in jobs.values():
            site.wait_file(job, "RING ")
        ports = {r: site.listeners(r, "enclb") for r in NODES}
        targets = ",".join(f"{NODES[r]}:{p}" for r in NODES for p in ports[r])
    finally:  # written whole, then renamed: the ranks read it as soon as it exists
        for hold in holds.values():
            hold.with_suffix(".tmp").write_text(targets)
            hold.with_suffix(".tmp").rename(hold)
    return {**{t: site.wait_file(job, "EXIT=") for t, job in jobs.items()}, "ports": ports}


def _ranks(text: str) -> list[list[str]]:
    """[host, VRF] of every rank, by rank."""
    return [line.split()[2:] for line in _lines(text, "RANK")]


def _probes(text: str) -> set[str]:
    return {line.split()[3] for line in text.splitlines() if line.startswith("PROBE")}


def test_an_mpi_job_across_both_nodes_of_one_tenant_completes_inside_its_vrf(mpi):
    assert "RING ok size=4" in mpi["B"] and "EXIT=0" in mpi["B"], mpi["B"]
    assert _ranks(mpi["B"]) == [["n1", VRF_B]] * 2 + [["n2", VRF_B]] * 2, mpi["B"]
    assert "RING ok size=2" in mpi["A"] and "EXIT=0" in mpi["A"], mpi["A"]
    assert _ranks(mpi["A"]) == [["n1", VRF_A], ["n2", VRF_A]], mpi["A"]


def test_an_mpi_rank_cannot_connect_to_another_tenants_job(mpi):
    assert all(len(p) >= 3 for p in mpi["ports"].values()), mpi["ports"]  # 2 ranks + orted/mpirun
    results = _probes(mpi["A"])  # every port of B's job, from both nodes
    assert results and "connected" not in results, mpi["A"]


def test_the_same_probes_from_the_tenants_own_job_connect_so_the_test_can_fail(mpi):
    assert _probes(mpi["B"]) == {"connected"}, mpi["B"]
