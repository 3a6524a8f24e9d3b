"""Page routes of the agents app."""

from django.urls import path

from agents import views

app_name = "agents"

urlpatterns = [
    path("", views.NodeListView.as_view(), name="node-list"),
    path("<int:pk>/", views.NodeDetailView.as_view(), name="node-detail"),
    path("<int:pk>/revoke-credential/", views.NodeRevokeCredentialView.as_view(), name="node-revoke-credential"),
    path("pools/<int:pk>/join-token/", views.JoinTokenCreateView.as_view(), name="join-token-create"),
]
