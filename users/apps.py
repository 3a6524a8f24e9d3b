"""Users app configuration."""

from django.apps import AppConfig


class UsersConfig(AppConfig):
    """Per-user API tokens and their authentication."""

    name = "users"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        """Register the OpenAPI extension for bearer tokens."""
        from users import schema  # noqa: F401
