"""Page routes of the fabrics app (included at /fabrics/)."""

from django.urls import path

from fabrics import views

app_name = "fabrics"

urlpatterns = [
    path("", views.FabricListView.as_view(), name="fabric-list"),
    path("<int:pk>/", views.FabricDetailView.as_view(), name="fabric-detail"),
    path("<int:pk>/join-token/", views.JoinTokenCreateView.as_view(), name="join-token-create"),
]
