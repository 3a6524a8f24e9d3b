"""Router registrations and fabric-agent paths of the fabrics API; portal/api_urls.py includes both."""

from django.urls import path

from fabrics.api import (
    FabricCredentialView,
    FabricDesiredView,
    FabricJoinTokenViewSet,
    FabricJoinView,
    FabricReportView,
    FabricViewSet,
    PartitionViewSet,
    SharedPortViewSet,
)


def register(router) -> None:
    """Add the fabrics endpoints to the project's /api/v1/ router."""
    router.register("fabrics", FabricViewSet, basename="fabric")
    router.register("fabric-shared-ports", SharedPortViewSet, basename="sharedport")
    router.register("fabric-join-tokens", FabricJoinTokenViewSet, basename="fabricjointoken")
    router.register("partitions", PartitionViewSet, basename="partition")


# Named agent-… so the access matrix and abuse table treat them as agent-credential routes.
urlpatterns = [
    path("fabric-agents/join", FabricJoinView.as_view(), name="agent-fabric-join"),
    path("fabric-agents/<slug:fabric>/desired", FabricDesiredView.as_view(), name="agent-fabric-desired"),
    path("fabric-agents/<slug:fabric>/report", FabricReportView.as_view(), name="agent-fabric-report"),
    path("fabric-agents/<slug:fabric>/credential", FabricCredentialView.as_view(), name="agent-fabric-credential"),
]
