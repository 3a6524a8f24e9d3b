"""The /api/v1/ router: each app's api_urls.py registers its viewsets and adds its own paths."""

from importlib import import_module

from rest_framework.routers import DefaultRouter

# The order the routes were always registered in (the API root lists them so); each app's paths come first.
API_APPS = ("tenants", "audit", "users", "agents", "netpolicy", "catalog", "vsphere", "nsx", "fabrics", "webhooks")

router = DefaultRouter()
urlpatterns = []
for _app in API_APPS:
    _module = import_module(f"{_app}.api_urls")
    _module.register(router)
    urlpatterns += getattr(_module, "urlpatterns", [])
urlpatterns += router.urls
