"""Identity: directory sign-in (LDAP) and one mapping from directory groups to tenants and roles."""

from django.apps import AppConfig


class IdentityConfig(AppConfig):
    name = "identity"
    verbose_name = "Identity"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from identity import ldap, schema  # noqa: F401 - django-auth-ldap's error signal; the API token scheme
