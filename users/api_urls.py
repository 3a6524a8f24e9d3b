"""Router registrations and paths of the users API; portal/api_urls.py includes both."""

from django.urls import path

from users.api import MeView, TokenViewSet


def register(router) -> None:
    """Add the users endpoints to the project's /api/v1/ router."""
    router.register("tokens", TokenViewSet)


urlpatterns = [
    path("me/", MeView.as_view(), name="me"),
]
