"""Re-encrypt every encrypted column under the newest ENCLAVE_FIELD_ENCRYPTION_KEYS key (idempotent, audited)."""

from django.apps import apps
from django.core.management.base import BaseCommand
from django.db import connection, transaction

from audit.context import acting_as, system_actor
from audit.services import record
from core.crypto import EncryptedTextField, decrypt, encrypt, is_current


def encrypted_fields():
    """(model, field) for every EncryptedTextField of every installed model."""
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            if isinstance(field, EncryptedTextField):
                yield model, field


def reencrypt(model, field) -> int:
    """Rewrite one column's stale ciphertexts under the newest key; return how many changed."""
    table, column, pk = model._meta.db_table, field.column, model._meta.pk.column
    quote = connection.ops.quote_name
    changed = 0
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {quote(pk)}, {quote(column)} FROM {quote(table)} WHERE {quote(column)} <> '' FOR UPDATE"  # noqa: S608 - names from the model
        )
        for key, ciphertext in cursor.fetchall():
            if is_current(ciphertext):
                continue
            fresh = encrypt(decrypt(ciphertext))
            cursor.execute(
                f"UPDATE {quote(table)} SET {quote(column)} = %s WHERE {quote(pk)} = %s",  # noqa: S608
                [fresh, key],
            )
            note = f"{field.name} re-encrypted under the newest key"
            record("secret.reencrypt", model.objects.get(pk=key), message=note)
            changed += 1
    return changed


class Command(BaseCommand):
    help = "Re-encrypt every stored secret under the newest field-encryption key (then retire the old keys)."

    def handle(self, **options):
        with acting_as(system_actor("reencrypt_secrets")):
            for model, field in encrypted_fields():
                changed = reencrypt(model, field)
                self.stdout.write(f"{model._meta.label}.{field.name}: {changed} re-encrypted")
