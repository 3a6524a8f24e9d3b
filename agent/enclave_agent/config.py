"""The agent's configuration: a root-owned file, never the environment (PAM passes the user's)."""

from __future__ import annotations

import configparser
import os
import stat
from pathlib import Path

DEFAULT_CONFIG = Path("/etc/enclave-agent/agent.conf")
DEFAULT_STATE_DIR = Path("/var/lib/enclave-agent")


class ConfigError(RuntimeError):
    """The configuration or the state it points to could have been written by someone but root."""


def trusted(path: Path) -> os.stat_result:
    """Stat path and refuse it unless root owns it and nobody else may write it."""
    st = os.stat(path)
    if st.st_uid != 0 or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise ConfigError(f"{path} must be owned by root and writable by root only")
    return st


def state_dir(config: Path = DEFAULT_CONFIG) -> Path:
    """The state directory: `state_dir` of section [agent] in the config file, else the default."""
    if not config.exists():
        return DEFAULT_STATE_DIR
    trusted(config)
    trusted(config.parent)
    parser = configparser.ConfigParser()
    try:
        parser.read_string(config.read_text(), source=str(config))
    except configparser.Error as exc:
        raise ConfigError(f"{config}: {exc}") from None
    value = Path(parser.get("agent", "state_dir", fallback=str(DEFAULT_STATE_DIR)))
    if not value.is_absolute():
        raise ConfigError(f"{config}: state_dir must be an absolute path")
    return value
