"""Enclave project package; importing it makes the Celery app available to Django."""

from portal.celery import app as celery_app

__all__ = ["celery_app"]
