"""The portal app: connects the login signal receivers at start-up (portal.auth)."""

from django.apps import AppConfig


class PortalConfig(AppConfig):
    name = "portal"

    def ready(self):
        from portal import auth  # noqa: F401  (its receivers count failed logins and remember sign-in addresses)
