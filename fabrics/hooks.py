"""Registrations into the layers below (filled in as the app grows)."""


def register() -> None:
    """Called once from FabricsConfig.ready()."""
