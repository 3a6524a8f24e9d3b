"""The `enclave` command line: names instead of ids, tables or JSON/YAML, profiles, and one line per error."""

import os
import sys

import click

from enclave_cli.cli_account import login, profile, tenants, tokens, whoami
from enclave_cli.cli_clusters import clusters
from enclave_cli.cli_network import rules, segments
from enclave_cli.cli_webhooks import webhooks
from enclave_cli.context import State, output_option
from enclave_cli.errors import CliError


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.option("--profile", envvar="ENCLAVE_PROFILE", help="Profile from the config file (ENCLAVE_PROFILE)")
@click.option("--url", help="The portal's URL (ENCLAVE_URL; overrides the profile's)")
@click.option("--ca-bundle", envvar="ENCLAVE_CA_BUNDLE", type=click.Path(dir_okay=False),
              help="CA certificates to verify the portal with (TLS is always verified)")  # fmt: skip
@click.option("--http-timeout", type=float, default=30.0, show_default=True, help="Seconds per HTTP request")
@output_option
@click.version_option("0.1.0", prog_name="enclave")
@click.pass_context
def cli(ctx, profile, url, ca_bundle, http_timeout):
    """Enclave from the command line. Token: ENCLAVE_TOKEN, or a profile saved by `enclave login`."""
    state = ctx.ensure_object(State)
    state.profile, state.url, state.ca_bundle, state.timeout = profile, url, ca_bundle, http_timeout


for command in (login, profile, whoami, tenants, clusters, segments, rules, webhooks, tokens):
    cli.add_command(command)


def main() -> None:
    """Run the command line: a CliError is one line on stderr and exit 1 (3 for a --wait timeout)."""
    try:
        code = cli.main(prog_name="enclave", standalone_mode=False)
    except CliError as exc:
        click.echo(f"enclave: {exc}", err=True)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:  # usage errors: click's own message, exit 2
        exc.show()
        sys.exit(exc.exit_code)
    except (click.Abort, KeyboardInterrupt):
        click.echo("enclave: interrupted", err=True)
        sys.exit(130)
    except Exception as exc:
        if os.environ.get("ENCLAVE_DEBUG"):
            raise
        click.echo(f"enclave: unexpected error: {type(exc).__name__}: {exc} (ENCLAVE_DEBUG=1 shows where)", err=True)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
