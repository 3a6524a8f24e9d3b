"""Page routes of the nsx app (included at /nsx/)."""

from django.urls import path

from nsx import views

app_name = "nsx"

urlpatterns = [
    path("managers/<int:pk>/check/", views.ManagerCheckView.as_view(), name="manager-check"),
]
