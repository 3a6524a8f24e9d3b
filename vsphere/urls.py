"""Page routes of the vsphere app (included at /vsphere/)."""

from django.urls import path

from vsphere import device_views, views

app_name = "vsphere"

urlpatterns = [
    path("", views.CapacityView.as_view(), name="capacity"),
    path("vcenters/", views.VCenterListView.as_view(), name="vcenter-list"),
    path("vcenters/<int:pk>/", views.VCenterDetailView.as_view(), name="vcenter-detail"),
    path("vcenters/<int:pk>/discover/", views.VCenterDiscoverView.as_view(), name="vcenter-discover"),
    path("pfs/", views.PFListView.as_view(), name="pf-list"),
    path("devices/", device_views.DevicesView.as_view(), name="devices"),
    path("clusters/<int:pk>/plan/", views.ClusterPlanView.as_view(), name="cluster-plan"),
    path("clusters/<int:pk>/operations/", views.ClusterOperationsView.as_view(), name="cluster-operations"),
]
