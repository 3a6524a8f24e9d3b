"""Secret key loading: from the environment, or a generated per-checkout file in development."""

import secrets
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


def load_secret_key(value: str, data_dir: Path, allow_generate: bool) -> str:
    """Return the configured key, or a key kept in DATA_DIR/secret_key when generating is allowed."""
    if value:
        return value
    path = data_dir / "secret_key"
    if path.exists():
        return path.read_text().strip()
    if not allow_generate:
        raise ImproperlyConfigured("ENCLAVE_SECRET_KEY is not set (ENCLAVE_DEBUG=1 generates one)")
    data_dir.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    path.write_text(key)
    path.chmod(0o600)
    return key


# The values .env.example ships (tests/test_deployment.py keeps the two in step): a site that copied the file
# and forgot one would run with a secret anyone can read on GitHub.
PLACEHOLDERS = frozenset({"change-me", "change-me-to-a-long-random-string", "change-me-to-another-long-random-string"})


def refuse_placeholders(values: dict[str, str | list[str]]) -> None:
    """Raise ImproperlyConfigured naming every setting that still holds an example placeholder."""
    found = sorted(name for name, value in values.items()
                   if any(v in PLACEHOLDERS or v.startswith("change-me") for v in
                          ([value] if isinstance(value, str) else value)))  # fmt: skip
    if found:
        raise ImproperlyConfigured(
            f"{', '.join(found)} still hold the placeholder of .env.example: set real secrets (e.g. "
            "python -c 'import secrets; print(secrets.token_urlsafe(32))'), or ENCLAVE_DEBUG=1 for development"
        )


class SecretPathError(PermissionError):
    """A secret file outside the secrets directory (an OSError: the worker reports it like an unreadable file)."""


def secret_path(value: str) -> Path:
    """Resolve a configured secret file (symlinks and `..` included); it must lie under ENCLAVE_SECRETS_DIR.

    The worker sends password_file's content to the vCenter host: any other file (the secret key,
    /etc/shadow) would leak to whoever can point a vCenter at their own host.
    """
    base = Path(settings.SECRETS_DIR).resolve()
    path = Path(value)
    if not path.is_absolute():
        raise SecretPathError(f"Use an absolute path under the secrets directory {base}.")
    resolved = path.resolve()
    if not resolved.is_relative_to(base) or resolved == base:
        raise SecretPathError(f"Only files under the secrets directory {base} (ENCLAVE_SECRETS_DIR) may be named.")
    return resolved
