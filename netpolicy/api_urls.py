"""Router registrations and paths of the netpolicy API; portal/api_urls.py includes both."""

from django.urls import path

from netpolicy.api import (
    ExportViewSet,
    FirewallPolicyViewSet,
    FirewallRuleViewSet,
    GroupViewSet,
    PoolViewSet,
    SegmentViewSet,
    ServiceViewSet,
    WhatIfViewSet,
)
from netpolicy.site_api import SiteSettingsView


def register(router) -> None:
    """Add the netpolicy endpoints to the project's /api/v1/ router."""
    router.register("pools", PoolViewSet)
    router.register("segments", SegmentViewSet)
    router.register("services", ServiceViewSet)
    router.register("groups", GroupViewSet)
    router.register("firewall-policies", FirewallPolicyViewSet)
    router.register("firewall-rules", FirewallRuleViewSet)
    router.register("what-if", WhatIfViewSet, basename="what-if")
    router.register("exports", ExportViewSet, basename="netpolicy-export")


urlpatterns = [
    path("site-settings/", SiteSettingsView.as_view(), name="site-settings"),
]
