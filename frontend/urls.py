"""Page routes."""

from django.urls import path

from frontend import admin_views, views

app_name = "frontend"

urlpatterns = [
    path("", views.HomeView.as_view(), name="home"),
    path("clusters/", views.ClusterListView.as_view(), name="cluster-list"),
    path("clusters/new/", views.ClusterCreateView.as_view(), name="cluster-create"),
    path("clusters/<int:pk>/", views.ClusterDetailView.as_view(), name="cluster-detail"),
    path("clusters/<int:pk>/<slug:verb>/", views.ClusterActionView.as_view(), name="cluster-action"),
    path("approvals/", views.ApprovalsView.as_view(), name="approvals"),
    path("audit/", admin_views.AuditListView.as_view(), name="audit"),
    path("tokens/", admin_views.TokenListView.as_view(), name="tokens"),
    path("tokens/<int:pk>/revoke/", admin_views.TokenRevokeView.as_view(), name="token-revoke"),
    path("tenants/", admin_views.TenantListView.as_view(), name="tenant-list"),
    path("tenants/<int:pk>/", admin_views.TenantDetailView.as_view(), name="tenant-detail"),
    path("memberships/<int:pk>/remove/", admin_views.MembershipRemoveView.as_view(), name="membership-remove"),
]
