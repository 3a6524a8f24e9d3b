"""Login lockout (django-axes) for the login forms: a clear 429 page, and no lockout of programmatic logins."""

import math

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib import admin
from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import render


class LoginLockoutBackend(AxesStandaloneBackend):
    """Axes' lockout check for logins that come with a request (the login forms).

    Calls without a request (management commands, the test client) are not the attack surface and
    have no address to lock; they fall through to the model backend.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def lockout_response(request, original_response=None, credentials=None):
    """The login page again, saying why and for how long (429 with Retry-After)."""
    minutes = math.ceil(settings.AXES_COOLOFF_TIME * 60)
    form = AuthenticationForm(request)
    form.errors["__all__"] = form.error_class(
        [f"Too many failed logins for this account from your address. Try again in {minutes} minutes."]
    )
    if request.path.startswith("/admin/"):
        template, context = "admin/login.html", {**admin.site.each_context(request), "form": form}
    else:
        template, context = "frontend/login.html", {"form": form}
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(minutes * 60)
    return response
