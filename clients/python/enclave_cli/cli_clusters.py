"""`enclave clusters ...`: request, endorse, approve, follow and change virtual clusters by name."""

import datetime

import click
import yaml

from enclave_cli import choices
from enclave_cli import workflows as wf
from enclave_cli.context import Progress, State, optional_tenant, output_option, pass_state, tenant_option, wait_options
from enclave_cli.errors import CliError
from enclave_cli.output import emit

STATES = list(choices.CLUSTER_STATES)


def columns(slugs: dict[int, str]) -> list:
    """The list table: one line per cluster."""
    return [
        ("TENANT", lambda c: slugs.get(c.tenant, c.tenant)), ("NAME", "name"), ("STATE", "state"),
        ("WORKERS", "worker_count"), ("VCPUS", "total_vcpus"), ("MEMORY GB", "total_memory_gb"),
        ("LEASE END", "lease_end"), ("ID", "id"), ("MESSAGE", "status_message"),
    ]  # fmt: skip


DETAIL = [
    ("ID", "id"), ("NAME", "name"), ("STATE", "state"), ("STATUS", "status_message"),
    ("GENERATION", lambda c: f"{c.observed_generation}/{c.generation} observed"),
    ("WORKLOAD CLASS", "workload_class"), ("WORKERS", "worker_count"), ("VCPUS PER NODE", "vcpus_per_node"),
    ("MEMORY GB PER NODE", "memory_gb_per_node"), ("LOGIN NODE", "login_node"), ("INTERCONNECT", "interconnect"),
    ("NETWORK MODE", "network_mode"), ("DATA PATH", "data_path"), ("NIC TYPE", "nic_type"), ("GPU MODE", "gpu_mode"),
    ("GPUS PER WORKER", "gpus_per_worker"), ("LEASE END", "lease_end"), ("REQUESTED BY", "requested_by"),
    ("SITE KIND", "site_kind"), ("REJECTION REASON", "rejection_reason"), ("CREATED", "created"),
]  # fmt: skip


@click.group()
def clusters():
    """Virtual clusters: request, endorse, approve, wait, resize, decommission."""


def _show(state: State, found, many: bool = False) -> None:
    emit(found, DETAIL, state.output, many=many)


def _finish(state: State, found, wait: bool, targets: set[str], timeout: float, interval: float) -> None:
    """Print the cluster, after waiting for it to reach a target state when asked."""
    if wait:
        api = state.api()
        found = wf.wait_for(lambda: wf.refresh(api, found), targets, timeout, interval, Progress())
    _show(state, found)


@clusters.command("list")
@optional_tenant
@click.option("--state", "states", multiple=True, type=click.Choice(STATES), help="Only these states (repeatable)")
@output_option
@pass_state
def list_clusters(state: State, tenant, states):
    """List clusters (all you can see, or one tenant's)."""
    api = state.api()
    rows = wf.clusters(api, tenant, list(states))
    emit(rows, columns({t.id: t.slug for t in wf.tenants(api)}), state.output)


@clusters.command()
@click.argument("name")
@tenant_option
@output_option
@pass_state
def show(state: State, name, tenant):
    """Show one cluster."""
    _show(state, wf.cluster(state.api(), tenant, name))


def _spec(file, options: dict) -> dict:
    """The request's fields: a YAML/JSON file (API field names), overridden by the options given."""
    spec = {}
    if file is not None:
        loaded = yaml.safe_load(file.read())
        if not isinstance(loaded, dict):
            raise CliError(f"{file.name} must hold a mapping of the API's cluster fields")
        spec.update(loaded)
    spec.update({key: value for key, value in options.items() if value is not None})
    if isinstance(spec.get("lease_end"), datetime.date | datetime.datetime):
        spec["lease_end"] = spec["lease_end"].strftime("%Y-%m-%d")
    return spec


@clusters.command()
@click.argument("name")
@tenant_option
@click.option("-f", "--file", type=click.File(), help="YAML or JSON with the API's cluster fields")
@click.option("--workload-class", type=click.Choice(choices.WORKLOAD_CLASSES))
@click.option("--workers", "worker_count", type=int)
@click.option("--vcpus", "vcpus_per_node", type=int, help="vCPUs per node")
@click.option("--memory", "memory_gb_per_node", type=int, help="GB of memory per node")
@click.option("--login-node/--no-login-node", default=None)
@click.option("--interconnect", type=click.Choice(choices.INTERCONNECTS))
@click.option("--network-mode", type=click.Choice(choices.NETWORK_MODES))
@click.option("--data-path", type=click.Choice(choices.DATA_PATHS))
@click.option("--nic-type", type=click.Choice(choices.NIC_TYPES))
@click.option("--gpu-mode", type=click.Choice(choices.GPU_MODES))
@click.option("--gpus", "gpus_per_worker", type=int, help="GPUs per worker")
@click.option("--vgpu-profile")
@click.option("--lease-end", type=click.DateTime(["%Y-%m-%d"]), help="YYYY-MM-DD")
@click.option("--justification")
@click.option("--draft", is_flag=True, help="Keep it a draft instead of submitting it")
@wait_options()
@output_option
@pass_state
def request(state: State, name, tenant, file, draft, wait, wait_timeout, interval, **options):
    """Request a cluster in a tenant (members: to the PI; owners: to the site admins)."""
    spec = _spec(file, {**options, "name": name})
    found = wf.request_cluster(state.api(), tenant, spec, submit=not draft)
    _finish(state, found, wait, {"ready"}, wait_timeout, interval)


@clusters.command()
@click.argument("name")
@tenant_option
@output_option
@pass_state
def endorse(state: State, name, tenant):
    """Endorse a member's request (tenant owners)."""
    api = state.api()
    _show(state, wf.endorse(api, wf.cluster(api, tenant, name)))


@clusters.command()
@click.argument("name")
@tenant_option
@click.option("--site", type=int, help="Id of the site (vCenter), when several are registered")
@wait_options()
@output_option
@pass_state
def approve(state: State, name, tenant, site, wait, wait_timeout, interval):
    """Approve an endorsed request (site admins); --wait follows it until ready."""
    api = state.api()
    found = wf.approve(api, wf.cluster(api, tenant, name), site)
    _finish(state, found, wait, {"ready"}, wait_timeout, interval)


@clusters.command()
@click.argument("name")
@tenant_option
@click.option("--reason", required=True, help="Why (shown to the requester)")
@output_option
@pass_state
def reject(state: State, name, tenant, reason):
    """Reject a pending request."""
    api = state.api()
    _show(state, wf.reject(api, wf.cluster(api, tenant, name), reason))


@clusters.command()
@click.argument("name")
@tenant_option
@wait_options()
@output_option
@pass_state
def decommission(state: State, name, tenant, wait, wait_timeout, interval):
    """Withdraw a pending request or tear down a cluster; --wait follows it until retired."""
    api = state.api()
    found = wf.decommission(api, wf.cluster(api, tenant, name))
    _finish(state, found, wait, {"retired"}, wait_timeout, interval)


@clusters.command()
@click.argument("name")
@tenant_option
@click.option("--workers", type=int, help="New number of workers")
@click.option("--interconnect", type=click.Choice(choices.INTERCONNECTS), help="New interconnect")
@wait_options()
@output_option
@pass_state
def resize(state: State, name, tenant, workers, interconnect, wait, wait_timeout, interval):
    """Day 2: change the worker count or the interconnect of a live cluster."""
    api = state.api()
    found = wf.resize(api, wf.cluster(api, tenant, name), workers, interconnect)
    _finish(state, found, wait, {"ready", "degraded"}, wait_timeout, interval)


@clusters.command("extend-lease")
@click.argument("name")
@tenant_option
@click.option("--until", "lease_end", required=True, type=click.DateTime(["%Y-%m-%d"]), help="New lease end")
@click.option("--justification", default="", help="Needed past the site's maximum lease")
@output_option
@pass_state
def extend_lease(state: State, name, tenant, lease_end, justification):
    """Move the lease end; past the site's maximum it becomes a request for a PI or admin."""
    api = state.api()
    result = wf.extend_lease(api, wf.cluster(api, tenant, name), lease_end.date(), justification)
    from enclave_client.models.lease_extension import LeaseExtension  # here, once the Api deferred the models' __init__

    if isinstance(result, LeaseExtension):
        click.echo("The extension goes past the site's maximum: it waits for a PI's or admin's decision.", err=True)
        emit(result, [("ID", "id"), ("LEASE END", "lease_end"), ("STATE", "state")], state.output, many=False)
        return
    _show(state, result)


@clusters.command("wait")
@click.argument("name")
@tenant_option
@click.option("--for", "targets", multiple=True, type=click.Choice(STATES), help="State(s) to wait for [ready]")
@click.option("--timeout", "wait_timeout", type=float, default=1800, show_default=True, metavar="SECONDS")
@click.option("--interval", type=float, default=2.0, envvar="ENCLAVE_POLL_INTERVAL", hidden=True)
@output_option
@pass_state
def wait_cluster(state: State, name, tenant, targets, wait_timeout, interval):
    """Wait until a cluster reaches a state (ready by default), showing progress; exit 3 on timeout."""
    api = state.api()
    found = wf.cluster(api, tenant, name)
    _finish(state, found, True, set(targets) or {"ready"}, wait_timeout, interval)
