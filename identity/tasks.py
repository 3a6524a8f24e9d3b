"""Periodic re-sync of directory users (ENCLAVE_DIRECTORY_RESYNC_SECONDS)."""

from celery import shared_task
from django.conf import settings

from identity import ldap, oidc


@shared_task
def resync_directory() -> dict:
    """Re-read directory users' groups (LDAP; OIDC through refresh tokens): someone removed from a
    group loses what it granted within the period."""
    report = {}
    if getattr(settings, "LDAP_URI", ""):
        report["ldap"] = ldap.resync_all()
    if getattr(settings, "OIDC_ENABLED", False):
        report["oidc"] = oidc.resync_all()
    return report or {"skipped": "no directory configured"}
