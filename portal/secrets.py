"""Secret key loading: from the environment, or a generated per-checkout file in development."""

import secrets
from pathlib import Path

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
