"""Router registrations and node-agent paths of the agents API; portal/api_urls.py includes both."""

from django.urls import path

from agents.api import (
    CredentialView,
    DesiredStateView,
    JoinTokenViewSet,
    JoinView,
    NodePoolViewSet,
    NodeViewSet,
    ObservedStateView,
    PoolSubnetViewSet,
)


def register(router) -> None:
    """Add the agents endpoints to the project's /api/v1/ router."""
    router.register("node-pools", NodePoolViewSet)
    router.register("pool-subnets", PoolSubnetViewSet)
    router.register("nodes", NodeViewSet)
    router.register("join-tokens", JoinTokenViewSet)


urlpatterns = [
    path("agents/join", JoinView.as_view(), name="agent-join"),
    path("agents/<slug:node>/desired-state", DesiredStateView.as_view(), name="agent-desired-state"),
    path("agents/<slug:node>/observed-state", ObservedStateView.as_view(), name="agent-observed-state"),
    path("agents/<slug:node>/credential", CredentialView.as_view(), name="agent-credential"),
]
