"""Page routes of the notices app (included at /notices/)."""

from django.urls import path

from notices import views

app_name = "notices"

urlpatterns = [
    path("preferences/", views.PreferencesView.as_view(), name="preferences"),
]
