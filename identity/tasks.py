"""Periodic re-sync of directory users (ENCLAVE_DIRECTORY_RESYNC_SECONDS)."""

from celery import shared_task
from django.conf import settings


@shared_task
def resync_directory() -> dict:
    """Re-read LDAP users' groups: someone removed from a group loses what it granted within the period."""
    if not getattr(settings, "LDAP_URI", ""):
        return {"skipped": "no directory configured"}
    from identity.ldap import resync_all

    return resync_all()
