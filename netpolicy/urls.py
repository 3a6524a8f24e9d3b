"""Page routes of the netpolicy app."""

from django.urls import path

from netpolicy import firewall_views, site_views, views

app_name = "netpolicy"

urlpatterns = [
    path("segments/", views.SegmentListView.as_view(), name="segment-list"),
    path("segments/new/", views.SegmentCreateView.as_view(), name="segment-create"),
    path("segments/<int:pk>/", views.SegmentDetailView.as_view(), name="segment-detail"),
    path("segments/<int:pk>/approve/", views.SegmentApproveView.as_view(), name="segment-approve"),
    path("segments/<int:pk>/reject/", views.SegmentRejectView.as_view(), name="segment-reject"),
    path("segments/<int:pk>/retire/", views.SegmentRetireView.as_view(), name="segment-retire"),
    path("pools/", views.PoolCreateView.as_view(), name="pool-create"),
    path("site/", site_views.SiteSettingsView.as_view(), name="site-settings"),
    path("firewall/", firewall_views.FirewallView.as_view(), name="rule-list"),
    path("firewall/what-if/", firewall_views.WhatIfView.as_view(), name="what-if"),
    path("firewall/policies/<int:pk>/rules/new/", firewall_views.RuleCreateView.as_view(), name="rule-create"),
    path("firewall/rules/<int:pk>/", firewall_views.RuleEditView.as_view(), name="rule-edit"),
    path("firewall/rules/<int:pk>/move/", firewall_views.RuleMoveView.as_view(), name="rule-move"),
    path("firewall/rules/<int:pk>/delete/", firewall_views.RuleDeleteView.as_view(), name="rule-delete"),
    path("firewall/tenants/<int:pk>/groups/new/", firewall_views.GroupCreateView.as_view(), name="group-create"),
    path("firewall/groups/<int:pk>/", firewall_views.GroupEditView.as_view(), name="group-edit"),
    path("firewall/groups/<int:pk>/delete/", firewall_views.GroupDeleteView.as_view(), name="group-delete"),
    path("firewall/services/", firewall_views.ServiceCreateView.as_view(), name="service-create"),
    path("firewall/services/request/", firewall_views.ServiceRequestView.as_view(), name="service-request"),
]
