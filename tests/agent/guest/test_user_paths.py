"""The paper's remaining tests on a real VRF kernel: ssh, srun, sbatch and MPI across two nodes.

Users log in from the outside host through sshd and the documented PAM line, and run Slurm jobs
(real slurmctld and slurmd, the SPANK plugin in plugstack.conf) and Open MPI across both nodes;
each path is shown landing in the user's tenant VRF, with a negative control that removes the
PAM line or the plugin and a fail-closed check for a user who belongs to no tenant.

Under the guest's emulated CPU every login and job step costs seconds (mostly the agent's Python
starting: once per login, twice per node of a step), so each tenant's user walks all of their
paths in one login (the `users` fixture): A logs in to n1, probes n2, hops to n2, runs srun on
both nodes and submits an MPI job; B logs in to n2 and submits a batch script that reports its
VRF and runs MPI, whose daemon on n2 mpirun starts as a Slurm step. The tests read what those two
logins and two jobs printed; the negative controls run on their own.
"""

import uuid
from pathlib import Path

import nodekit
import pytest
from nodekit import MPI_FLAGS, NODES, USERS, A, B, quote

VRF_A, VRF_B = f"vrf{A}", f"vrf{B}"
WHERE = 'echo "$(hostname) $(ip vrf identify $$)"'  # the node and the VRF of this shell
# A's MPI job keeps its own TCP listeners off B's ports, so only B's job can answer there.
A_FLAGS = "--mca btl_tcp_port_min_v4 30000 --mca btl_tcp_port_range_v4 100"


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


def _probe(host: str, port: int) -> str:
    """A shell line printing what a TCP connection to host:port got back (socat, no Python)."""
    return f"echo hi | socat -t5 - TCP:{host}:{port},connect-timeout=3 2>/dev/null | head -c 7; echo"


def _srun_where(nodes: int = 2) -> str:
    """One task on each of `nodes` nodes (also inside a batch job whose allocation has more)."""
    return f"srun -N{nodes} -n{nodes} --ntasks-per-node=1 sh -c {quote(WHERE)}"


def _tagged(text: str, tag: str) -> list[str]:
    """The rest of every line that starts with tag, sorted."""
    return sorted(x[len(tag) + 1 :].strip() for x in text.splitlines() if x.startswith(f"{tag} "))


def _login(site, user: str, node: str, lines: list[str]) -> str:
    """One ssh login running lines; the login must have submitted its batch job."""
    out = site.ssh(user, node, "; ".join(lines))
    if "Submitted batch job" not in out.stdout:
        raise AssertionError(f"{user}@{node}: {out.stdout}\n{out.stderr}\n{site.daemon_logs()}")
    return out.stdout


def _job_id(login: str) -> str:
    return next(x.split()[-1] for x in login.splitlines() if x.startswith("Submitted batch job"))


def _mpi(site, hold: Path, before: str = "", flags: str = "") -> str:
    """A batch script: `before`, then mpi_ring across the allocation over TCP, then its status."""
    return f"{before}mpirun {MPI_FLAGS} {flags} {site.base}/bin/mpi_ring --hold {hold}; echo EXIT=$?"


@pytest.fixture(scope="module")
def users(site, net):
    """What A's and B's logins printed ("A", "B") and their MPI jobs ("jobA", "jobB"), the ports
    B's job listened on ("ports") and slurmd's log on n2 ("slurmd-n2").

    Both MPI jobs run at once across both nodes (cons_tres shares them): once both rings have run
    and hold, each rank of each job tries to connect to every port B's job listens on (B's own
    ranks are the negative control), then both end.
    """
    net.listen("n2", 5101, dev=VRF_A, timeout=900)  # the logins may take minutes under TCG
    net.listen("n2", 5102, dev=VRF_B, timeout=900)
    tag = uuid.uuid4().hex[:6]
    jobs = {t: site.base / "jobs" / f"mpi-{t}-{tag}" for t in "AB"}
    holds = {t: site.base / "jobs" / f"hold-{t}-{tag}" for t in "AB"}
    n2 = NODES["n2"]
    script_a = _mpi(site, holds["A"], flags=A_FLAGS)
    a = _login(site, "encla", "n1", [
        f"echo login $({WHERE})",
        f'echo "own [$({_probe(n2, 5101)})]"',
        f'echo "other [$({_probe(n2, 5102)})]"',
        f"ssh {n2} {quote(WHERE)} | sed 's/^/hop /'",
        f"{_srun_where()} | sed 's/^/step /'",
        f"sbatch -N2 --ntasks-per-node=1 -o {jobs['A']} --wrap {quote(script_a)}",
    ])  # fmt: skip
    script_b = _mpi(site, holds["B"], before=f"echo batch $({WHERE}); ")
    b = _login(site, "enclb", "n2", [
        f"echo login $({WHERE})",
        f"sbatch -N2 --ntasks-per-node=1 -o {jobs['B']} --wrap {quote(script_b)}",
    ])  # fmt: skip
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
    done = {f"job{t}": site.wait_file(job, "EXIT=") for t, job in jobs.items()}
    logs = (site.base / "slurmd-n2.out", site.base / "slurm/slurmd-n2.log")
    slurmd = "".join(p.read_text() for p in logs if p.exists())
    return {"A": a, "B": b, **done, "ports": ports, "slurmd-n2": slurmd}


# -- ssh ---------------------------------------------------------------------------------------


def test_an_ssh_login_lands_in_the_users_tenant_vrf_and_reaches_only_its_tenant(users):
    assert _tagged(users["A"], "login") == [f"n1 {VRF_A}"], users["A"]
    assert _tagged(users["A"], "own") == ["[echo:hi]"], users["A"]  # A's listener on n2
    assert _tagged(users["A"], "other") == ["[]"], users["A"]  # B's listener on n2: nothing
    assert _tagged(users["B"], "login") == [f"n2 {VRF_B}"], users["B"]


def test_ssh_from_one_node_to_the_other_stays_in_the_tenants_vrf(users):
    assert _tagged(users["A"], "hop") == [f"n2 {VRF_A}"], users["A"]  # through A's VXLAN to n2


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


def test_srun_from_a_login_runs_the_steps_in_the_tenants_vrf_on_both_nodes(users):
    assert _tagged(users["A"], "step") == [f"n1 {VRF_A}", f"n2 {VRF_A}"], users["A"]


def test_sbatch_runs_the_batch_script_and_its_steps_in_the_tenants_vrf(users):
    assert _tagged(users["jobB"], "batch") == [f"n1 {VRF_B}"], users["jobB"]  # the batch step, on n1
    # mpirun (Open MPI's Slurm launcher) starts its daemon on n2 as step 0 of the job, through
    # slurmd and the plugin; the daemon's children, the ranks on n2, report B's VRF.
    step = f"launch task StepId={_job_id(users['B'])}.0 request from UID:{USERS['enclb']} "
    assert step in users["slurmd-n2"], users["slurmd-n2"]
    assert ["n2", VRF_B] in _ranks(users["jobB"]), users["jobB"]


def test_without_the_plugin_srun_and_sbatch_steps_run_in_the_default_vrf_so_the_tests_can_fail(site):
    job = site.base / "jobs" / f"noplugin-{uuid.uuid4().hex[:6]}"
    site.plugstack(enabled=False)
    try:  # submitted from outside any VRF: without the plugin, srun inside one could not work
        steps = site.run("n1", _srun_where(), user="encla")
        site.run("n1", f"sbatch -N1 -o {job} --wrap {quote(f'echo batch $({WHERE}); echo DONE')}", user="encla")
        text = site.wait_file(job, "DONE")
    finally:
        site.plugstack(enabled=True)
    assert sorted(steps.stdout.split()) == ["n1", "n2"], steps.stderr
    assert _tagged(text, "batch") == ["n1"]


def test_a_job_of_a_user_in_no_tenant_is_refused_on_every_node(site):
    out = site.run("n1", "srun -N2 --ntasks-per-node=1 echo TASK-RAN", user="enclc")
    assert out.returncode != 0 and "TASK-RAN" not in out.stdout
    assert "enclave-agent: session refused: uid 65503 is not a member of any tenant" in out.stderr


# -- Open MPI ----------------------------------------------------------------------------------


def _ranks(text: str) -> list[list[str]]:
    """[host, VRF] of every rank, by rank."""
    return [line.split()[2:] for line in sorted(x for x in text.splitlines() if x.startswith("RANK"))]


def _probes(text: str) -> set[str]:
    return {line.split()[3] for line in text.splitlines() if line.startswith("PROBE")}


def test_an_mpi_job_across_both_nodes_of_one_tenant_completes_inside_its_vrf(users):
    job_a, job_b = users["jobA"], users["jobB"]
    assert "RING ok size=2" in job_b and "EXIT=0" in job_b, job_b
    assert _ranks(job_b) == [["n1", VRF_B], ["n2", VRF_B]], job_b
    assert "RING ok size=2" in job_a and "EXIT=0" in job_a, job_a
    assert _ranks(job_a) == [["n1", VRF_A], ["n2", VRF_A]], job_a


def test_an_mpi_rank_cannot_connect_to_another_tenants_job(users):
    assert all(len(p) >= 2 for p in users["ports"].values()), users["ports"]  # the rank, orted/mpirun
    results = _probes(users["jobA"])  # every port of B's job, from both nodes
    assert results and "connected" not in results, users["jobA"]


def test_the_same_probes_from_the_tenants_own_job_connect_so_the_test_can_fail(users):
    assert _probes(users["jobB"]) == {"connected"}, users["jobB"]
