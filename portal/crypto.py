"""Encryption of credentials at rest (Fernet), keyed by ENCLAVE_FIELD_ENCRYPTION_KEY or the secret key."""

import base64
import functools

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings
from django.db import models


@functools.cache
def _fernet(key_material: str) -> Fernet:
    """Derive a Fernet key from the configured key material."""
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"enclave-field-encryption", info=b"v1")
    return Fernet(base64.urlsafe_b64encode(derived.derive(key_material.encode())))


def _current() -> Fernet:
    return _fernet(settings.FIELD_ENCRYPTION_KEY or settings.SECRET_KEY)


def encrypt(plaintext: str) -> str:
    """Return the ciphertext of a secret, as text for a database column."""
    return _current().encrypt(plaintext.encode()).decode()


def decrypt(ciphertext: str) -> str:
    """Return the plaintext of a stored secret; a wrong key is a clear error, not garbage."""
    try:
        return _current().decrypt(ciphertext.encode()).decode()
    except InvalidToken:
        raise ValueError("cannot decrypt a stored secret: was ENCLAVE_FIELD_ENCRYPTION_KEY changed?") from None


class EncryptedTextField(models.TextField):
    """A text column holding Fernet ciphertext; Python code sees the plaintext."""

    def from_db_value(self, value, expression, connection):
        return None if value in (None, "") else decrypt(value)

    def get_prep_value(self, value):
        value = super().get_prep_value(value)
        return value if value in (None, "") else encrypt(value)
