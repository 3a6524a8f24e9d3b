"""What every command shares: the chosen profile and output format, common options, the --wait display."""

import sys
import time
from dataclasses import dataclass, field

import click

from enclave_cli import config
from enclave_cli.api import Api
from enclave_cli.output import FORMATS


@dataclass
class State:
    """The root group's options; the connection is made on first use."""

    profile: str | None = None
    url: str | None = None
    ca_bundle: str | None = None
    output: str = "table"
    timeout: float = 30.0
    _api: Api | None = field(default=None, repr=False)

    def api(self) -> Api:
        """The connection to the chosen site (flags, then environment, then profile)."""
        if self._api is None:
            self._api = Api(config.resolve(self.profile, self.url, self.ca_bundle), timeout=self.timeout)
        return self._api


pass_state = click.make_pass_decorator(State, ensure=True)


def _set_output(ctx, param, value):
    if value:
        ctx.ensure_object(State).output = value
    return value


output_option = click.option(
    "-o", "--output", type=click.Choice(FORMATS), expose_value=False, callback=_set_output,
    help="table (default), json or yaml",
)  # fmt: skip
tenant_option = click.option(
    "--tenant", "-t", envvar="ENCLAVE_TENANT", required=True, metavar="SLUG", help="Tenant by name (ENCLAVE_TENANT)"
)
optional_tenant = click.option("--tenant", "-t", envvar="ENCLAVE_TENANT", metavar="SLUG", help="Only this tenant")


def wait_options(default_timeout: int = 1800):
    """--wait, --timeout and a hidden poll interval (ENCLAVE_POLL_INTERVAL)."""

    def decorate(func):
        func = click.option("--interval", type=float, default=2.0, envvar="ENCLAVE_POLL_INTERVAL", hidden=True)(func)
        func = click.option("--timeout", "wait_timeout", type=float, default=default_timeout, show_default=True,
                            metavar="SECONDS", help="Give up waiting after this long (exit 3)")(func)  # fmt: skip
        return click.option("--wait", is_flag=True, help="Wait until it settles, showing progress")(func)

    return decorate


class Progress:
    """Shows a wait on stderr: a line per change of state or message; on a terminal, a ticking clock."""

    def __init__(self):
        self.start, self.last, self.tty = time.monotonic(), None, sys.stderr.isatty()

    def __call__(self, obj) -> None:
        state = str(getattr(obj.state, "value", obj.state))
        message = getattr(obj, "status_message", "") or ""
        pending = obj.observed_generation < obj.generation
        key = (state, message, pending)
        elapsed = time.monotonic() - self.start
        line = f"[{elapsed:4.0f}s] {obj.name}: {state}" + (" (changes pending)" if pending else "")
        line += f" - {message}" if message else ""
        if key != self.last:
            click.echo(("\r" if self.tty else "") + line, err=True)
            self.last = key
        elif self.tty:
            click.echo("\r" + line, err=True, nl=False)
