"""Node credentials and join tokens: random secrets, stored only as SHA-256 hashes."""

import secrets

from users.models import hash_token

NODE_PREFIX = "encn_"  # a node credential; never accepted by the tenant API
JOIN_PREFIX = "encj_"  # a one-time join token


def new_secret(prefix: str) -> tuple[str, str]:
    """Return (plaintext, hash) of a fresh 256-bit secret."""
    raw = prefix + secrets.token_urlsafe(32)
    return raw, hash_token(raw)


__all__ = ["NODE_PREFIX", "JOIN_PREFIX", "new_secret", "hash_token"]
