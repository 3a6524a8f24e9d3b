"""Page routes of the fabrics app (included at /fabrics/)."""

from django.urls import path

from fabrics import views

app_name = "fabrics"

urlpatterns = [
    path("", views.fabric_list, name="fabric-list"),
    path("<int:pk>/", views.fabric_detail, name="fabric-detail"),
    path("<int:pk>/join-token/", views.join_token_create, name="join-token-create"),
]
