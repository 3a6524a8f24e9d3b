"""Page routes of the agents app."""

from django.urls import path

from agents import views

app_name = "agents"

urlpatterns = [
    path("", views.node_list, name="node-list"),
    path("<int:pk>/", views.node_detail, name="node-detail"),
    path("<int:pk>/revoke-credential/", views.node_revoke_credential, name="node-revoke-credential"),
    path("pools/<int:pk>/join-token/", views.join_token_create, name="join-token-create"),
]
