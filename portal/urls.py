"""Top-level URL configuration."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from identity.forms import SignInForm
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
    path("login/", auth_views.LoginView.as_view(template_name="frontend/login.html", authentication_form=SignInForm),
         name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("portal.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(permission_classes=schema_permissions()), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema", permission_classes=schema_permissions()),
         name="api-docs"),  # fmt: skip
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics_view, name="metrics"),
]
handler404 = "portal.rest.not_found"
