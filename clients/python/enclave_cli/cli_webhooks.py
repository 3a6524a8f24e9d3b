"""`enclave webhooks ...`: webhooks by name within a tenant (or the site), their secrets and delivery log."""

import click
from click.core import ParameterSource

from enclave_cli import choices
from enclave_cli import webhooks as wh
from enclave_cli import workflows as wf
from enclave_cli.context import Progress, State, output_option, pass_state, wait_options
from enclave_cli.output import cell, emit

SHOWN_ONCE = "The signing secret is shown only now: store it where the receiver verifies signatures."


def _conditions(hook) -> str:
    given = hook.conditions.to_dict() if hasattr(hook.conditions, "to_dict") else {}
    return " ".join(f"{key}={','.join(values)}" for key, values in given.items() if values)


def columns(slugs: dict[int, str]) -> list:
    """One line per webhook; its tenant by name, `(site)` for a site webhook."""
    return [
        ("TENANT", lambda w: "(site)" if wh.is_site(w) else slugs.get(w.tenant, w.tenant)), ("NAME", "name"),
        ("URL", "url_redacted"), ("EVENTS", "events"), ("CONDITIONS", _conditions), ("ENABLED", "enabled"),
        ("SECRETS", lambda w: [f"...{s.hint}" + (f" until {cell(s.expires_at)}" if s.expires_at else "")
                               for s in w.secrets]),
        ("FINGERPRINT", "url_fingerprint"), ("ID", "id"),  # the URL is a credential: never shown back in full
    ]  # fmt: skip


DELIVERY_COLUMNS = [
    ("ID", "id"), ("EVENT", "event_type"), ("STATE", "state"), ("ATTEMPTS", "attempts"), ("CODE", "response_code"),
    ("DURATION", lambda d: f"{d.duration_ms}ms" if d.duration_ms is not None else None), ("ERROR", "last_error"),
    ("CREATED", "created"),
]  # fmt: skip
DELIVERY_DETAIL = [
    *DELIVERY_COLUMNS[:7], ("WEBHOOK", "webhook"), ("MESSAGE ID", "message_id"), ("NEXT ATTEMPT", "next_attempt_at"),
    ("REPLAY OF", "replay_of"), ("CREATED", "created"),
]  # fmt: skip


def scope_options(func):
    """--tenant SLUG (a tenant's webhooks) or --site (the site's, site admins)."""
    func = click.option("--site", is_flag=True, help="The site's webhooks (site admins) instead of a tenant's")(func)
    return click.option("--tenant", "-t", envvar="ENCLAVE_TENANT", metavar="SLUG",
                        help="The tenant by name (ENCLAVE_TENANT)")(func)  # fmt: skip


def _scope(tenant: str | None, site: bool, required: bool = True) -> str | None:
    """The tenant's slug, or None for the site (--site wins over ENCLAVE_TENANT, not over --tenant)."""
    from_command_line = click.get_current_context().get_parameter_source("tenant") != ParameterSource.ENVIRONMENT
    if site and tenant and from_command_line:
        raise click.UsageError("give --tenant SLUG or --site, not both")
    if site:
        return None
    if required and not tenant:
        raise click.UsageError("give --tenant SLUG (a tenant's webhook) or --site (the site's)")
    return tenant


def condition_options(func):
    """The conditions that narrow a webhook's events (each repeatable; every key given must match)."""
    options = [
        click.option("--state", "states", multiple=True, metavar="STATE",
                     help="Only events whose object moved to this state, e.g. ready (repeatable)"),
        click.option("--object", "objects", multiple=True, metavar="TENANT/NAME",
                     help="Only events about this object, e.g. astro/mpi-1 (repeatable)"),
        click.option("--only-tenant", "only_tenants", multiple=True, metavar="SLUG",
                     help="Site webhooks: only this tenant's events (repeatable)"),
    ]  # fmt: skip
    for option in reversed(options):
        func = option(func)
    return func


def _show(state: State, found, slug: str | None, extra: tuple = ()) -> None:
    slugs = {found.tenant: slug} if slug else {}
    emit(found, [*columns(slugs), ("CREATED", "created"), *extra], state.output, many=False)


@click.group()
def webhooks():
    """Webhooks: signed deliveries of events to an endpoint (tenant owners for their tenants, admins the site)."""


@webhooks.command("list")
@click.option("--tenant", "-t", envvar="ENCLAVE_TENANT", metavar="SLUG", help="Only this tenant's webhooks")
@click.option("--site", is_flag=True, help="Only the site's webhooks")
@output_option
@pass_state
def list_webhooks(state: State, tenant, site):
    """List the webhooks you manage (all of them, one tenant's, or the site's)."""
    slug = _scope(tenant, site, required=False)
    api = state.api()
    rows = wh.webhooks(api, slug, site)
    slugs = {t.id: t.slug for t in wf.tenants(api)} if rows else {}
    emit(rows, columns(slugs), state.output)


@webhooks.command("create")
@click.argument("name")
@click.option("--url", required=True, help="The endpoint: https:// and a host name (no private addresses)")
@click.option("--event", "events", multiple=True, required=True, type=click.Choice(choices.WEBHOOK_EVENTS),
              help="An event to deliver (repeatable)")  # fmt: skip
@scope_options
@condition_options
@click.option("--disabled", is_flag=True, help="Create it switched off")
@output_option
@pass_state
def create(state: State, name, url, events, tenant, site, states, objects, only_tenants, disabled):
    """Create a webhook; its signing secret is shown this once."""
    slug = _scope(tenant, site)
    spec = {"name": name, "url": url, "events": list(events), "enabled": not disabled}
    given = wh.conditions(states, objects, only_tenants)
    created = wh.create_webhook(state.api(), slug, spec | ({"conditions": given} if given else {}))
    click.echo(SHOWN_ONCE, err=True)
    _show(state, created, slug, (("SECRET", "secret"),))


@webhooks.command("update")
@click.argument("name")
@scope_options
@click.option("--url", help="A new endpoint")
@click.option("--event", "events", multiple=True, type=click.Choice(choices.WEBHOOK_EVENTS),
              help="The events to deliver, replacing the list (repeatable)")  # fmt: skip
@click.option("--enable/--disable", "enabled", default=None, help="Switch deliveries on or off")
@condition_options
@click.option("--clear-conditions", is_flag=True, help="Drop the conditions (before applying any given)")
@click.option("--rename", help="A new name")
@output_option
@pass_state
def update(state: State, name, tenant, site, url, events, enabled, states, objects, only_tenants, clear_conditions,
           rename):  # fmt: skip
    """Change the given fields of a webhook; conditions given replace those keys."""
    slug = _scope(tenant, site)
    given = {"url": url, "events": list(events) or None, "enabled": enabled, "name": rename}
    fields = {key: value for key, value in given.items() if value is not None}
    found = wh.update_webhook(state.api(), slug, name, fields, wh.conditions(states, objects, only_tenants),
                              clear_conditions)  # fmt: skip
    _show(state, found, slug)


@webhooks.command("delete")
@click.argument("name")
@scope_options
@pass_state
def delete(state: State, name, tenant, site):
    """Delete a webhook with its secrets and delivery log."""
    slug = _scope(tenant, site)
    found = wh.delete_webhook(state.api(), slug, name)
    click.echo(f"Deleted webhook {found.name} (id {found.id}) of {wh.where(slug)} and its delivery log.", err=True)


@webhooks.command("rotate-secret")
@click.argument("name")
@scope_options
@output_option
@pass_state
def rotate_secret(state: State, name, tenant, site):
    """A new signing secret, shown this once; the old one keeps signing alongside it for the site's overlap."""
    slug = _scope(tenant, site)
    rotated = wh.rotate_secret(state.api(), slug, name)
    click.echo(SHOWN_ONCE + " The previous one signs too until its expiry (SECRETS).", err=True)
    _show(state, rotated, slug, (("SECRET", "secret"),))


@webhooks.command("test")
@click.argument("name")
@scope_options
@wait_options(default_timeout=300)
@output_option
@pass_state
def send_test(state: State, name, tenant, site, wait, wait_timeout, interval):
    """Queue a webhook.test delivery; --wait follows it until it succeeded (exit 1 if it failed)."""
    api = state.api()
    found = wh.send_test(api, wh.webhook(api, _scope(tenant, site), name))
    click.echo(f"Queued test delivery {found.id} to webhook {name}.", err=True)
    if wait:
        found = wh.wait_delivery(api, found, wait_timeout, interval, Progress())
    emit(found, DELIVERY_DETAIL, state.output, many=False)


@webhooks.command("deliveries")
@click.argument("name")
@scope_options
@click.option("--state", "delivery_state", type=click.Choice(choices.DELIVERY_STATES), help="Only this state")
@click.option("--limit", type=click.IntRange(1, 1000), default=20, show_default=True, help="The newest N")
@output_option
@pass_state
def list_deliveries(state: State, name, tenant, site, delivery_state, limit):
    """A webhook's delivery log, newest first: state, attempts, response code, duration, last error."""
    api = state.api()
    found = wh.webhook(api, _scope(tenant, site), name)
    emit(wh.deliveries(api, found, delivery_state, limit), DELIVERY_COLUMNS, state.output)


@webhooks.command("replay")
@click.argument("delivery_id", type=int, metavar="DELIVERY_ID")
@output_option
@pass_state
def replay(state: State, delivery_id):
    """Send a finished delivery again (same message id and payload, a new entry in the log)."""
    again = wh.replay(state.api(), delivery_id)
    click.echo(f"Queued delivery {again.id}, a replay of delivery {delivery_id}.", err=True)
    emit(again, DELIVERY_DETAIL, state.output, many=False)
