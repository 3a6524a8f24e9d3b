"""Enumerations of the catalog app."""

from django.db import models


class Visibility(models.TextChoices):
    ALL = "all", "Every tenant"
    TENANTS = "tenants", "Only the listed tenants"
