"""Local passwords: always for the break-glass accounts, for everyone else only while ENCLAVE_LOCAL_LOGIN is on."""

from django.conf import settings
from django.contrib.auth.backends import ModelBackend


class LocalBackend(ModelBackend):
    """Django's password check, switched off (but for ENCLAVE_BREAK_GLASS_USERS) by ENCLAVE_LOCAL_LOGIN=0."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if not settings.LOCAL_LOGIN and username not in settings.BREAK_GLASS_USERS:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
