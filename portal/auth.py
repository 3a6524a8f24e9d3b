"""Login lockout for the login forms: per (user, address) by django-axes, plus a per-user bound that slows.

Locking a username everywhere would let anyone lock out the break-glass admin with five wrong passwords.
So axes locks only the (username, client address) pair; across all addresses, once a username has
ENCLAVE_LOGIN_USER_FAILURE_LIMIT failures in the cool-off window, it gets one try per
ENCLAVE_LOGIN_USER_SLOWDOWN_SECONDS (a guesser with many addresses is slowed, the owner waits seconds, not
minutes), except from an address where that user signed in before (30 days): the owner's usual desk.
"""

import hashlib
import math
import time

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib import admin
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.shortcuts import render

from core.proxies import client_address

KNOWN_ADDRESS_SECONDS = 30 * 24 * 3600


def _user_key(kind: str, username: str, *parts) -> str:
    digest = hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32]
    return ":".join(["login", kind, digest, *map(str, parts)])


def _window() -> tuple[int, int]:
    """The current fixed window (its number) and its length in seconds: the axes cool-off."""
    length = max(60, int(settings.AXES_COOLOFF_TIME * 3600))
    return int(time.time() // length), length


def _slowed(request, username: str) -> int:
    """Seconds to wait before this username may be tried again from this address (0: go ahead)."""
    window, _ = _window()
    failures = cache.get(_user_key("failures", username, window), 0)
    if failures < settings.LOGIN_USER_FAILURE_LIMIT:
        return 0
    if cache.get(_user_key("known", username, client_address(request))):
        return 0
    pace = settings.LOGIN_USER_SLOWDOWN_SECONDS
    return 0 if cache.add(_user_key("pace", username), 1, pace) else pace


@receiver(user_login_failed, dispatch_uid="enclave-login-user-failures")
def _count_failure(sender, credentials, request=None, **kwargs):
    """Count a failure of a password that was actually checked (not one refused by a lockout or the pace)."""
    username = (credentials or {}).get("username")
    if request is None or not username or not getattr(request, "enclave_password_checked", False):
        return
    window, length = _window()
    key = _user_key("failures", username, window)
    cache.add(key, 0, length)
    cache.incr(key)


@receiver(user_logged_in, dispatch_uid="enclave-login-known-address")
def _remember_address(sender, request, user, **kwargs):
    """The address a user signed in from is theirs for the per-user bound (never for the pair lockout)."""
    address = client_address(request) if request is not None else None
    if address:
        cache.set(_user_key("known", user.get_username(), address), 1, KNOWN_ADDRESS_SECONDS)


class LoginLockoutBackend(AxesStandaloneBackend):
    """Axes' lockout check for logins that come with a request (the login forms).

    Calls without a request (management commands, the test client) are not the attack surface and
    have no address to lock; they fall through to the model backend.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        wait = _slowed(request, username or "")
        if wait:
            request.axes_locked_out, request.enclave_retry_after = True, wait  # not counted as a failure by axes
            raise PermissionDenied("this username is being guessed from many addresses: one try per few seconds")
        super().authenticate(request, username=username, password=password, **kwargs)
        request.enclave_password_checked = True
        return None


def lockout_response(request, original_response=None, credentials=None):
    """The login page again, saying why and for how long (429 with Retry-After)."""
    seconds = getattr(request, "enclave_retry_after", 0)
    if seconds:
        text = (f"Many failed logins for this account from many addresses: it takes one try every {seconds} "
                f"seconds for now. Try again in {seconds} seconds.")  # fmt: skip
    else:
        minutes = math.ceil(settings.AXES_COOLOFF_TIME * 60)
        seconds = minutes * 60
        text = f"Too many failed logins for this account from your address. Try again in {minutes} minutes."
    form = AuthenticationForm(request)
    form.errors["__all__"] = form.error_class([text])
    if request.path.startswith("/admin/"):
        template, context = "admin/login.html", {**admin.site.each_context(request), "form": form}
    else:
        template, context = "frontend/login.html", {"form": form}
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(seconds)
    return response
