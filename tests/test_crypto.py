"""Secrets at rest are ciphertext in the database and plaintext in Python."""

import pytest
from django.test import override_settings

from portal import crypto


def test_encrypt_round_trips_and_never_stores_plaintext():
    ciphertext = crypto.encrypt("vc-admin-password")
    assert "vc-admin-password" not in ciphertext
    assert crypto.decrypt(ciphertext) == "vc-admin-password"


def test_a_changed_key_is_a_clear_error():
    ciphertext = crypto.encrypt("secret")
    with override_settings(FIELD_ENCRYPTION_KEY="another-key"), pytest.raises(ValueError, match="ENCLAVE_FIELD"):
        crypto.decrypt(ciphertext)
