"""Encryption of credentials at rest (Fernet), with key rotation (MultiFernet, newest key first).

Keys come from ENCLAVE_FIELD_ENCRYPTION_KEYS (production must set them); outside production the
secret key is used. Each key string is stretched with HKDF, so any long random string is a key.
`manage.py reencrypt_secrets` rewrites every stored secret under the newest key.
"""

import base64
import functools

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings
from django.db import models


@functools.cache
def _fernet(key_material: str) -> Fernet:
    """Derive a Fernet key from one configured key."""
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"enclave-field-encryption", info=b"v1")
    return Fernet(base64.urlsafe_b64encode(derived.derive(key_material.encode())))


def _keys() -> tuple[str, ...]:
    return tuple(settings.FIELD_ENCRYPTION_KEYS) or (settings.SECRET_KEY,)


@functools.cache
def _multi(keys: tuple[str, ...]) -> MultiFernet:
    return MultiFernet([_fernet(key) for key in keys])


def encrypt(plaintext: str) -> str:
    """Return the ciphertext of a secret under the newest key, as text for a database column."""
    return _multi(_keys()).encrypt(plaintext.encode()).decode()


def decrypt(ciphertext: str) -> str:
    """Return the plaintext of a stored secret (any configured key); a wrong key is a clear error."""
    try:
        return _multi(_keys()).decrypt(ciphertext.encode()).decode()
    except InvalidToken:
        raise ValueError(
            "cannot decrypt a stored secret with any of ENCLAVE_FIELD_ENCRYPTION_KEYS: was a key removed too early?"
        ) from None


def is_current(ciphertext: str) -> bool:
    """Whether a stored secret is already encrypted under the newest key."""
    try:
        _fernet(_keys()[0]).decrypt(ciphertext.encode())
    except InvalidToken:
        return False
    return True


class EncryptedTextField(models.TextField):
    """A text column holding Fernet ciphertext; Python code sees the plaintext."""

    def from_db_value(self, value, expression, connection):
        return value if value in (None, "") else decrypt(value)  # "" stays "" (a NOT NULL column)

    def get_prep_value(self, value):
        value = super().get_prep_value(value)
        return value if value in (None, "") else encrypt(value)
