"""Page routes."""

from django.urls import path

from frontend import admin_views, views

app_name = "frontend"

urlpatterns = [
    path("", views.home, name="home"),
    path("clusters/", views.cluster_list, name="cluster-list"),
    path("clusters/new/", views.cluster_create, name="cluster-create"),
    path("clusters/<int:pk>/", views.cluster_detail, name="cluster-detail"),
    path("clusters/<int:pk>/<slug:verb>/", views.cluster_action, name="cluster-action"),
    path("approvals/", views.approvals, name="approvals"),
    path("audit/", admin_views.audit_list, name="audit"),
    path("tokens/", admin_views.token_list, name="tokens"),
    path("tokens/<int:pk>/revoke/", admin_views.token_revoke, name="token-revoke"),
    path("tenants/", admin_views.tenant_list, name="tenant-list"),
    path("tenants/<int:pk>/", admin_views.tenant_detail, name="tenant-detail"),
    path("memberships/<int:pk>/remove/", admin_views.membership_remove, name="membership-remove"),
]
