"""Frontend app configuration."""

from django.apps import AppConfig


class FrontendConfig(AppConfig):
    """Server-rendered pages driven by htmx."""

    name = "frontend"
