"""Profiles for several sites: a YAML file that must not be readable by others when it holds a token."""

import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from enclave_cli.errors import CliError

KEYS = ("url", "token", "ca_bundle")


@dataclass
class Settings:
    """Where to connect and as whom, once the flags, the environment and the profile are combined."""

    profile: str
    url: str
    token: str
    ca_bundle: str | None


def config_path() -> Path:
    """ENCLAVE_CONFIG, else $XDG_CONFIG_HOME/enclave/config.yaml (~/.config by default)."""
    if os.environ.get("ENCLAVE_CONFIG"):
        return Path(os.environ["ENCLAVE_CONFIG"]).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "enclave" / "config.yaml"


def _refuse_if_exposed(path: Path, data: dict) -> None:
    """Like ssh: a file holding a token that group or others can read is refused, not used."""
    holds_token = any(isinstance(p, dict) and p.get("token") for p in data.get("profiles", {}).values())
    mode = stat.S_IMODE(path.stat().st_mode)
    if holds_token and mode & 0o077:
        raise CliError(f"{path} holds a token and is readable by others (mode {mode:04o}); run: chmod 600 {path}")


def load(path: Path | None = None) -> dict:
    """The config file's contents ({} when there is none); refused if it is malformed or exposed."""
    path = path or config_path()
    if not path.exists():
        return {"profiles": {}}
    try:
        data = yaml.safe_load(path.read_text()) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise CliError(f"cannot read {path}: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict) or not isinstance(data.get("profiles", {}), dict):
        raise CliError(f"{path} is not an enclave config file (expected a 'profiles' mapping)")
    data.setdefault("profiles", {})
    _refuse_if_exposed(path, data)
    return data


def save(data: dict, path: Path | None = None) -> Path:
    """Write the file atomically, mode 0600 (its directory 0700)."""
    path = path or config_path()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".config-", dir=path.parent)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w") as out:
            yaml.safe_dump(data, out, sort_keys=True)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def current_profile(data: dict, chosen: str | None) -> str:
    """--profile, else ENCLAVE_PROFILE, else the file's `current`, else "default"."""
    return chosen or os.environ.get("ENCLAVE_PROFILE") or data.get("current") or "default"


def resolve(chosen: str | None, url: str | None, ca_bundle: str | None) -> Settings:
    """Flags win over the environment (ENCLAVE_URL, ENCLAVE_TOKEN, ENCLAVE_CA_BUNDLE), which wins over the profile."""
    data = load()
    name = current_profile(data, chosen)
    profile = data["profiles"].get(name) or {}
    if chosen and not profile and not os.environ.get("ENCLAVE_URL"):
        raise CliError(f"no profile named {name!r} in {config_path()} (enclave profile list shows them)")
    url = url or os.environ.get("ENCLAVE_URL") or profile.get("url") or ""
    token = os.environ.get("ENCLAVE_TOKEN") or profile.get("token") or ""
    bundle = ca_bundle or os.environ.get("ENCLAVE_CA_BUNDLE") or profile.get("ca_bundle")
    if not url:
        raise CliError("no server configured: set ENCLAVE_URL or run: enclave login --url https://portal.example.org")
    return Settings(name, url.rstrip("/"), token, bundle)


def set_profile(name: str, values: dict, make_current: bool) -> Path:
    """Add or change a profile (only the given keys) and save the file 0600."""
    data = load()
    profile = data["profiles"].setdefault(name, {})
    profile.update({key: value for key, value in values.items() if key in KEYS and value is not None})
    if make_current or "current" not in data:
        data["current"] = name
    return save(data)


def delete_profile(name: str) -> Path:
    """Remove a profile; the current one falls back to none."""
    data = load()
    if data["profiles"].pop(name, None) is None:
        raise CliError(f"no profile named {name!r} in {config_path()}")
    if data.get("current") == name:
        data.pop("current")
    return save(data)


def use_profile(name: str) -> Path:
    """Make a profile the current one."""
    data = load()
    if name not in data["profiles"]:
        raise CliError(f"no profile named {name!r} in {config_path()} (enclave profile list shows them)")
    data["current"] = name
    return save(data)
