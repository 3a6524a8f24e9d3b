"""Page routes of the notices app (included at /notices/)."""

from django.urls import path

from notices import views

app_name = "notices"

urlpatterns = [
    path("", views.NoticeListView.as_view(), name="list"),
    path("<int:pk>/read/", views.NoticeReadView.as_view(), name="notice-read"),
    path("preferences/", views.PreferencesView.as_view(), name="preferences"),
]
