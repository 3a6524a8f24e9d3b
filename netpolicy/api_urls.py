"""Router registrations of the netpolicy API; portal/api_urls.py calls register(router)."""

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
