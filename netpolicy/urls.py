"""Page routes of the netpolicy app."""

from django.urls import path

from netpolicy import views

app_name = "netpolicy"

urlpatterns = [
    path("segments/", views.segment_list, name="segment-list"),
    path("firewall/", views.firewall, name="rule-list"),
    path("firewall/what-if/", views.what_if, name="what-if"),
]
