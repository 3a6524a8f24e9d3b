"""Settings helpers that read typed values from the environment."""

import os


def env_str(name: str, default: str = "") -> str:
    """Return an environment variable as a string."""
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    """Return an environment variable as a boolean ("1", "true", "yes" are true)."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    """Return an environment variable as an integer."""
    value = os.environ.get(name)
    return int(value) if value not in (None, "") else default


def multi_host(hosts: list[str], connect_timeout: int) -> dict:
    """Django database settings for libpq's multi-host string: every "host:port", the writable one kept."""
    return {
        "HOST": ",".join(item.rpartition(":")[0] for item in hosts),
        "PORT": ",".join(item.rpartition(":")[2] for item in hosts),
        "OPTIONS": {"target_session_attrs": "read-write", "connect_timeout": connect_timeout},
    }


def env_list(name: str, default: str = "") -> list[str]:
    """Return a comma-separated environment variable as a list."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]
