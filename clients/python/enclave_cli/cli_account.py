"""`enclave login`, `profile`, `whoami`, `tenants` and `tokens`: who you are, where, and with which token."""

import datetime
import sys

import click

from enclave_cli import choices, config
from enclave_cli import workflows as wf
from enclave_cli.api import Api
from enclave_cli.context import State, output_option, pass_state
from enclave_cli.errors import CliError
from enclave_cli.output import emit

TOKEN_COLUMNS = [
    ("NAME", "name"), ("SCOPE", "scope"), ("HINT", "hint"), ("ACTIVE", "is_active"), ("EXPIRES", "expires_at"),
    ("LAST USED", "last_used_at"), ("ID", "id"),
]  # fmt: skip


def read_token(from_stdin: bool) -> str:
    """A token from stdin (one line) or a hidden prompt: never from the command line, where `ps` shows it."""
    if from_stdin or not sys.stdin.isatty():
        token = sys.stdin.readline().strip()
    else:
        token = click.prompt("Token", hide_input=True).strip()
    if not token:
        raise CliError("no token given")
    return token


@click.command()
@click.option("--url", required=True, help="The portal, e.g. https://enclave.example.org")
@click.option("--profile", "name", default=None, help="Profile to save as [the current one, or default]")
@click.option("--ca-bundle", type=click.Path(exists=True, dir_okay=False), help="The site's CA certificates (PEM)")
@click.option("--token-stdin", is_flag=True, help="Read the token from stdin instead of prompting")
@pass_state
def login(state: State, url, name, ca_bundle, token_stdin):
    """Check a token against a site and save it in a profile (the config file is written 0600)."""
    token = read_token(token_stdin)
    name = name or state.profile or config.current_profile(config.load(), None)
    settings = config.Settings(name, url.rstrip("/"), token, ca_bundle or state.ca_bundle)
    found = wf.me(Api(settings, timeout=state.timeout))
    path = config.set_profile(name, {"url": settings.url, "token": token, "ca_bundle": settings.ca_bundle}, True)
    described = (
        f"{found.username}, token {found.token.name}, {found.token.scope.value}" if found.token else found.username
    )
    click.echo(f"Saved profile {name} for {settings.url} ({described}) in {path}", err=True)


@click.group()
def profile():
    """Profiles for several sites in the config file (ENCLAVE_CONFIG, default ~/.config/enclave/config.yaml)."""


@profile.command("list")
@output_option
@pass_state
def list_profiles(state: State):
    """List the profiles; * marks the current one."""
    data = config.load()
    current = config.current_profile(data, state.profile)
    rows = [{"current": "*" if key == current else "", "name": key, "url": value.get("url", ""),
             "token": f"{value['token'][:8]}..." if value.get("token") else "", "ca_bundle": value.get("ca_bundle")}
            for key, value in sorted(data["profiles"].items())]  # fmt: skip
    columns = [(header.upper().replace("_", " "), lambda r, k=header: r[k] or "")
               for header in ("current", "name", "url", "token", "ca_bundle")]  # fmt: skip
    emit(rows, columns, state.output)


@profile.command("set")
@click.argument("name")
@click.option("--url", help="The portal's URL")
@click.option("--ca-bundle", type=click.Path(exists=True, dir_okay=False), help="The site's CA certificates")
@click.option("--token-stdin", is_flag=True, help="Read a token from stdin and store it (file mode 0600)")
@click.option("--use", is_flag=True, help="Make it the current profile")
def set_profile(name, url, ca_bundle, token_stdin, use):
    """Create or change a profile."""
    token = read_token(True) if token_stdin else None
    path = config.set_profile(name, {"url": url.rstrip("/") if url else None, "token": token,
                                     "ca_bundle": ca_bundle}, use)  # fmt: skip
    click.echo(f"Saved profile {name} in {path}", err=True)


@profile.command("use")
@click.argument("name")
def use_profile(name):
    """Make a profile the current one."""
    config.use_profile(name)
    click.echo(f"Using profile {name}", err=True)


@profile.command("delete")
@click.argument("name")
def delete_profile(name):
    """Remove a profile (and its token) from the config file."""
    config.delete_profile(name)
    click.echo(f"Deleted profile {name}", err=True)


@click.command()
@output_option
@pass_state
def whoami(state: State):
    """Who you are on which site: account, site admin or not, tenants with roles, and the token used."""
    api = state.api()
    found = wf.me(api)
    token = found.token
    row = {"user": found.username, "name": found.full_name, "site_admin": found.is_site_admin,
           "profile": api.settings.profile, "url": api.settings.url,
           "token": token.name if token else "", "scope": token.scope.value if token else "",
           "expires": token.expires_at if token else None,
           "tenants": [f"{m.slug} ({m.role})" for m in found.memberships]}  # fmt: skip
    emit(row, [(key.upper(), lambda r, k=key: r[k]) for key in row], state.output, many=False)


@click.group()
def tenants():
    """Tenants you belong to (all of them for site admins)."""


@tenants.command("list")
@output_option
@pass_state
def list_tenants(state: State):
    """List tenants."""
    emit(wf.tenants(state.api()), [("NAME", "slug"), ("TITLE", "name"), ("ID", "id")], state.output)


@click.group()
def tokens():
    """Your API tokens."""


@tokens.command("list")
@output_option
@pass_state
def list_tokens(state: State):
    """List your tokens (revoked ones too)."""
    emit(wf.tokens(state.api()), TOKEN_COLUMNS, state.output)


@tokens.command("create")
@click.argument("name")
@click.option("--scope", type=click.Choice(choices.SCOPES), default="read", show_default=True)
@click.option("--expires", type=click.DateTime(["%Y-%m-%d"]), help="Expiry date [the site's default lifetime]")
@output_option
@pass_state
def create_token(state: State, name, scope, expires):
    """Create a token; its plaintext is shown this once."""
    expires_at = expires.replace(tzinfo=datetime.UTC) if expires else None
    created = wf.create_token(state.api(), name, scope, expires_at)
    click.echo("The token is shown only now: store it (enclave profile set NAME --token-stdin).", err=True)
    emit(created, [*TOKEN_COLUMNS[:5], ("TOKEN", "token")], state.output, many=False)


@tokens.command("revoke")
@click.argument("name")
@output_option
@pass_state
def revoke_token(state: State, name):
    """Revoke a token by name; it stops working at once."""
    emit(wf.revoke_token(state.api(), name), TOKEN_COLUMNS, state.output, many=False)
