"""Secrets at rest are ciphertext in the database and plaintext in Python; keys rotate."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

from audit.models import AuditEvent
from core import crypto
from tests.vsphere.sites import make_vcenter

ROOT = Path(__file__).resolve().parent.parent


def test_encrypt_round_trips_and_never_stores_plaintext():
    ciphertext = crypto.encrypt("vc-admin-password")
    assert "vc-admin-password" not in ciphertext
    assert crypto.decrypt(ciphertext) == "vc-admin-password"


def test_a_changed_key_is_a_clear_error():
    ciphertext = crypto.encrypt("secret")
    with override_settings(FIELD_ENCRYPTION_KEYS=["another-key"]), pytest.raises(ValueError, match="ENCLAVE_FIELD"):
        crypto.decrypt(ciphertext)


def test_an_old_key_still_decrypts_while_it_is_listed():
    with override_settings(FIELD_ENCRYPTION_KEYS=["old-key-" + "x" * 32]):
        ciphertext = crypto.encrypt("secret")
    with override_settings(FIELD_ENCRYPTION_KEYS=["new-key-" + "y" * 32, "old-key-" + "x" * 32]):
        assert crypto.decrypt(ciphertext) == "secret" and not crypto.is_current(ciphertext)


def _stored_password(vcenter) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT password FROM vsphere_vcenter WHERE id = %s", [vcenter.pk])
        return cursor.fetchone()[0]


@pytest.mark.django_db
def test_reencrypt_secrets_moves_every_secret_to_the_newest_key_idempotently_and_audited(capsys):
    old, new = "old-key-" + "x" * 32, "new-key-" + "y" * 32
    with override_settings(FIELD_ENCRYPTION_KEYS=[old]):
        vcenter = make_vcenter(password="vc-pw")
    with override_settings(FIELD_ENCRYPTION_KEYS=[new, old]):
        call_command("reencrypt_secrets")
        assert "vsphere.VCenter.password: 1 re-encrypted" in capsys.readouterr().out
        once = _stored_password(vcenter)
        call_command("reencrypt_secrets")
        assert "vsphere.VCenter.password: 0 re-encrypted" in capsys.readouterr().out
        assert _stored_password(vcenter) == once
    with override_settings(FIELD_ENCRYPTION_KEYS=[new]):
        vcenter.refresh_from_db()
        assert vcenter.password == "vc-pw"
    event = AuditEvent.objects.get(action="secret.reencrypt")
    assert event.object_id == str(vcenter.pk) and "vc-pw" not in str(event.__dict__)


def test_production_refuses_to_start_without_explicit_field_encryption_keys():
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENCLAVE_FIELD_ENCRYPTION")}
    env.update(ENCLAVE_PRODUCTION="1", ENCLAVE_SECRET_KEY="x" * 50, ENCLAVE_ALLOWED_HOSTS="enclave.example.org")
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode != 0 and "ENCLAVE_FIELD_ENCRYPTION_KEYS is not set" in result.stderr
