"""The one error type the command line reports: a single line on stderr and a non-zero exit."""


class CliError(Exception):
    """A refusal or failure, already worded for the user."""

    exit_code = 1


class TimedOut(CliError):
    """A --wait that ran out of time before the object settled."""

    exit_code = 3
