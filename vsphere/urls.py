"""Page routes of the vsphere app (included at /vsphere/)."""

from django.urls import path

from vsphere import device_views, views

app_name = "vsphere"

urlpatterns = [
    path("", views.capacity, name="capacity"),
    path("vcenters/", views.vcenter_list, name="vcenter-list"),
    path("vcenters/<int:pk>/", views.vcenter_detail, name="vcenter-detail"),
    path("vcenters/<int:pk>/discover/", views.vcenter_discover, name="vcenter-discover"),
    path("pfs/", views.pf_list, name="pf-list"),
    path("devices/", device_views.devices, name="devices"),
    path("clusters/<int:pk>/plan/", views.cluster_plan, name="cluster-plan"),
    path("clusters/<int:pk>/operations/", views.cluster_operations, name="cluster-operations"),
]
