"""The sign-in page (Django's LoginView with the provider's button), routed as /login/ by portal/urls.py."""

from django.conf import settings
from django.contrib.auth.views import LoginView

from identity.forms import SignInForm


class SignInView(LoginView):
    """The login page: the password form, and the provider's button when OpenID Connect is on."""

    template_name = "frontend/login.html"
    authentication_form = SignInForm

    def get_context_data(self, **kwargs):
        return super().get_context_data(**kwargs) | {
            "oidc_enabled": getattr(settings, "OIDC_ENABLED", False),
            "oidc_provider_name": getattr(settings, "OIDC_PROVIDER_NAME", ""),
        }
