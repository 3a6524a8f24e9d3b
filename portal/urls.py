"""Top-level URL configuration."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from identity import oidc
from identity.signin import SignInView
from portal.health import healthz
from portal.metrics import metrics_view
from portal.schema import schema_permissions

urlpatterns = [
    path("", include("frontend.urls")),
    path("nodes/", include("agents.urls")),
    path("network/", include("netpolicy.urls")),
    path("vsphere/", include("vsphere.urls")),
    path("catalog/", include("catalog.urls")),
    path("notices/", include("notices.urls")),
    path("identity/", include("identity.urls")),
    path("nsx/", include("nsx.urls")),
    path("fabrics/", include("fabrics.urls")),
    path("webhooks/", include("webhooks.urls")),
    path("login/", SignInView.as_view(), name="login"),
    path("logout/", oidc.logout, name="logout"),
    path("oidc/authenticate/", oidc.authenticate_view, name="oidc_authentication_init"),
    path("oidc/callback/", oidc.callback_view, name="oidc_authentication_callback"),
    path("oidc/logout/", oidc.logout, name="oidc_logout"),  # the name mozilla-django-oidc exempts from refresh
    path("admin/", admin.site.urls),
    path("api/v1/", include("portal.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(permission_classes=schema_permissions()), name="schema"),
    path(
        "api/docs/",
        SpectacularSwaggerView.as_view(url_name="schema", permission_classes=schema_permissions()),
        name="api-docs",
    ),  # fmt: skip
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics_view, name="metrics"),
]
handler404 = "core.rest.not_found"
handler500 = "core.rest.server_error"
