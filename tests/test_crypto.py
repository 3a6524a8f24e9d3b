"""Secrets at rest are ciphertext in the database and plaintext in Python."""

from django.test import override_settings

from portal import crypto


def test_encrypt_round_trips_and_never_stores_plaintext():
    ciphertext = crypto.encrypt("vc-admin-password")
    assert "vc-admin-password" not in ciphertext
    assert crypto.decrypt(ciphertext) == "vc-admin-password"


def test_a_changed_key_is_a_clear_error():
    ciphertext = crypto.encrypt("secret")
    with override_settings(FIELD_ENCRYPTION_KEY="another-key"):
        try:
            crypto.decrypt(ciphertext)
        except ValueError as exc:
            assert "ENCLAVE_FIELD_ENCRYPTION_KEY" in str(exc)
        else:
            raise AssertionError("decrypting with another key must fail")
