"""`enclave segments ...` and `enclave rules ...`: network segments and firewall rules by name."""

import click

from enclave_cli import choices
from enclave_cli import firewall as fw
from enclave_cli import workflows as wf
from enclave_cli.context import Progress, State, optional_tenant, output_option, pass_state, tenant_option, wait_options
from enclave_cli.output import emit

SEGMENT_COLUMNS = [
    ("NAME", "name"), ("KIND", "kind"), ("STATE", "state"), ("VLAN", "vlan_id"), ("VNI", "vni"),
    ("SUBNET", "subnet"), ("GATEWAY", "gateway"), ("MTU", "effective_mtu"), ("ID", "id"),
]  # fmt: skip
POLICY_COLUMNS = [("SEQUENCE", "sequence"), ("NAME", "name"), ("CATEGORY", "category"), ("ID", "id")]


@click.group()
def segments():
    """Network segments of a tenant."""


@segments.command("list")
@optional_tenant
@output_option
@pass_state
def list_segments(state: State, tenant):
    """List segments (all you can see, or one tenant's)."""
    emit(wf.segments(state.api(), tenant), SEGMENT_COLUMNS, state.output)


@segments.command("show")
@click.argument("name")
@tenant_option
@output_option
@pass_state
def show_segment(state: State, name, tenant):
    """Show one segment."""
    found = wf.segment(state.api(), tenant, name)
    emit(found, [*SEGMENT_COLUMNS, ("WARNING", "mtu_warning"), ("CREATED", "created")], state.output, many=False)


def _finish(state: State, found, wait, targets, timeout, interval) -> None:
    if wait:
        api = state.api()
        found = wf.wait_for(lambda: wf.refresh_segment(api, found), targets, timeout, interval, Progress())
    emit(found, SEGMENT_COLUMNS, state.output, many=False)


@segments.command("request")
@click.argument("name")
@tenant_option
@click.option("--kind", required=True, type=click.Choice(choices.SEGMENT_KINDS))
@click.option("--vlan", "vlan_id", type=int, help="Explicit VLAN id (next free by default)")
@click.option("--vni", type=int, help="Explicit VNI (next free by default)")
@click.option("--subnet", help="Explicit subnet, e.g. 10.64.3.0/24")
@click.option("--prefix-length", type=int, help="Subnet size from the pool, e.g. 24")
@click.option("--mtu", type=int)
@click.option("--data-path", type=click.Choice(choices.DATA_PATHS))
@wait_options(default_timeout=600)
@output_option
@pass_state
def request_segment(state: State, name, tenant, wait, wait_timeout, interval, **spec):
    """Request a segment; --wait follows it until approved or ready."""
    found = wf.request_segment(state.api(), tenant, {**spec, "name": name})
    _finish(state, found, wait, {"approved", "ready"}, wait_timeout, interval)


@segments.command("retire")
@click.argument("name")
@tenant_option
@output_option
@pass_state
def retire_segment(state: State, name, tenant):
    """Retire a segment; its ids and subnet return to the pools."""
    api = state.api()
    emit(wf.retire_segment(api, wf.segment(api, tenant, name)), SEGMENT_COLUMNS, state.output, many=False)


@click.group()
def rules():
    """Firewall rules within a policy: stable ids, explicit sequence."""


def rule_columns(names: fw.Names, policies: dict[int, str]) -> list:
    """The rules table, with groups and services by name."""
    groups = lambda ids: [names.groups.get(i, i) for i in ids or []] or ["any"]  # noqa: E731
    return [
        ("POLICY", lambda r: policies.get(r.policy, r.policy)), ("SEQUENCE", "sequence"), ("ID", "id"),
        ("NAME", "name"), ("ACTION", "action"), ("DIRECTION", "direction"), ("SOURCES", lambda r: groups(r.sources)),
        ("DESTINATIONS", lambda r: groups(r.destinations)),
        ("SERVICES", lambda r: [names.services.get(i, i) for i in r.services or []] or ["any"]),
        ("ENABLED", "enabled"), ("FINDINGS", lambda r: len(r.findings)),
    ]  # fmt: skip


def _emit_rules(state: State, tenant, found: list, many: bool = True) -> None:
    api = state.api()
    table = fw.names(api, wf.tenant(api, tenant).id if tenant else None)
    policies = {p.id: p.name for p in fw.policies(api, tenant)}
    emit(found, rule_columns(table, policies), state.output, many=many)


site_option = click.option("--tenant", "-t", envvar="ENCLAVE_TENANT", metavar="SLUG",
                           help="Tenant by name; without it, the site's policies (admins)")  # fmt: skip


@rules.command("policies")
@site_option
@output_option
@pass_state
def list_policies(state: State, tenant):
    """List the firewall policies of a tenant (or of the site)."""
    emit(fw.policies(state.api(), tenant), POLICY_COLUMNS, state.output)


@rules.command("list")
@site_option
@click.option("--policy", help="Only this policy's rules")
@output_option
@pass_state
def list_rules(state: State, tenant, policy):
    """List rules in policy and sequence order."""
    _emit_rules(state, tenant, fw.rules(state.api(), tenant, policy))


def rule_options(func):
    """The writable fields of a rule; groups and services by name, repeatable."""
    options = [
        click.option("--sequence", type=int, help="Position in the policy (lower first)"),
        click.option("--action", type=click.Choice(choices.ACTIONS)),
        click.option("--direction", type=click.Choice(choices.DIRECTIONS)),
        click.option("--source", "sources", multiple=True, help="Group name (repeatable; none: any)"),
        click.option("--destination", "destinations", multiple=True, help="Group name (repeatable; none: any)"),
        click.option("--service", "services", multiple=True, help="Service name (repeatable; none: any)"),
        click.option("--logged/--not-logged", default=None),
        click.option("--enabled/--disabled", default=None),
        click.option("--description"),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _fields(spec: dict) -> dict:
    """Only what was given: an empty repeatable option leaves the field as it is."""
    return {key: list(value) if isinstance(value, tuple) else value for key, value in spec.items()
            if value is not None and value != ()}  # fmt: skip


@rules.command("create")
@click.argument("name")
@site_option
@click.option("--policy", required=True, help="Policy name, e.g. isolation")
@rule_options
@output_option
@pass_state
def create_rule(state: State, name, tenant, policy, **spec):
    """Add a rule to a policy."""
    found = fw.create_rule(state.api(), tenant, policy, {**_fields(spec), "name": name})
    _emit_rules(state, tenant, found, many=False)


@rules.command("update")
@click.argument("name")
@site_option
@click.option("--policy", required=True, help="Policy name")
@click.option("--rename", help="A new name for the rule")
@rule_options
@output_option
@pass_state
def update_rule(state: State, name, tenant, policy, rename, **spec):
    """Change the given fields of a rule; its id stays."""
    fields = _fields(spec) | ({"name": rename} if rename else {})
    found = fw.update_rule(state.api(), tenant, policy, name, fields)
    _emit_rules(state, tenant, found, many=False)


@rules.command("delete")
@click.argument("name")
@site_option
@click.option("--policy", required=True, help="Policy name")
@pass_state
def delete_rule(state: State, name, tenant, policy):
    """Delete a rule."""
    found = fw.delete_rule(state.api(), tenant, policy, name)
    click.echo(f"Deleted rule {found.name} (id {found.id}) from policy {policy}.", err=True)
