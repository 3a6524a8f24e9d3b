"""Notices: in-app notices and e-mail to whoever must act next, with per-user preferences."""

from django.apps import AppConfig


class NoticesConfig(AppConfig):
    name = "notices"
    verbose_name = "Notices"
    default_auto_field = "django.db.models.BigAutoField"
