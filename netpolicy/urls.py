"""Page routes of the netpolicy app."""

from django.urls import path

from netpolicy import site_views, views

app_name = "netpolicy"

urlpatterns = [
    path("segments/", views.segment_list, name="segment-list"),
    path("segments/new/", views.segment_create, name="segment-create"),
    path("segments/<int:pk>/", views.segment_detail, name="segment-detail"),
    path("segments/<int:pk>/approve/", views.segment_approve, name="segment-approve"),
    path("segments/<int:pk>/reject/", views.segment_reject, name="segment-reject"),
    path("segments/<int:pk>/retire/", views.segment_retire, name="segment-retire"),
    path("pools/", views.pool_create, name="pool-create"),
    path("site/", site_views.site_settings_page, name="site-settings"),
    path("firewall/", views.firewall, name="rule-list"),
    path("firewall/what-if/", views.what_if, name="what-if"),
    path("firewall/policies/<int:pk>/rules/new/", views.rule_create, name="rule-create"),
    path("firewall/rules/<int:pk>/", views.rule_edit, name="rule-edit"),
    path("firewall/rules/<int:pk>/move/", views.rule_move, name="rule-move"),
    path("firewall/rules/<int:pk>/delete/", views.rule_delete, name="rule-delete"),
    path("firewall/tenants/<int:pk>/groups/new/", views.group_create, name="group-create"),
    path("firewall/groups/<int:pk>/", views.group_edit, name="group-edit"),
    path("firewall/groups/<int:pk>/delete/", views.group_delete, name="group-delete"),
    path("firewall/services/", views.service_create, name="service-create"),
    path("firewall/services/request/", views.service_request, name="service-request"),
]
