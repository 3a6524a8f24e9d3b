"""REST API of the vsphere app: inventory for site admins, VF assignments and plans per tenant."""

from django.db.models import Count
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, mixins, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from core.rest import int_param
from tenants.access import scope
from tenants.api_base import SITE_ADMIN_ONLY, TenantScopedViewSet
from tenants.models import VirtualCluster
from vsphere import allocation, previews, services
from vsphere.filtersets import (
    HostFilterSet,
    OperationLogFilterSet,
    PhysicalFunctionFilterSet,
    VCenterFilterSet,
    VFAssignmentFilterSet,
)
from vsphere.models import Host, OperationLog, PhysicalFunction, VCenter, VFAssignment
from vsphere.serializers import (
    CapacitySerializer,
    DiscoveryQueuedSerializer,
    HostSerializer,
    OperationLogSerializer,
    PhysicalFunctionSerializer,
    PhysicalFunctionUpdateSerializer,
    PlanPreviewSerializer,
    VCenterSerializer,
    VFAssignmentSerializer,
)

# drf-spectacular names the path's pk "id" (SCHEMA_COERCE_PATH_PK)
CLUSTER_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="Cluster id")


ADMIN_ONLY = SITE_ADMIN_ONLY


class VCenterViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                     mixins.UpdateModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet):  # fmt: skip
    queryset = VCenter.objects.annotate(host_total=Count("hosts")).order_by("name")
    serializer_class = VCenterSerializer
    filterset_class = VCenterFilterSet
    permission_classes = ADMIN_ONLY

    def perform_create(self, serializer):
        serializer.instance = services.create_vcenter(serializer.validated_data)

    def perform_update(self, serializer):
        serializer.instance = services.update_vcenter(serializer.instance, serializer.validated_data)

    def perform_destroy(self, instance):
        services.delete_vcenter(instance)

    @extend_schema(request=None, responses=DiscoveryQueuedSerializer)
    @action(detail=True, methods=["post"])
    def discover(self, request, pk=None):
        """Queue a discovery run (hosts, PFs, datastores, templates, switches) for the worker."""
        vcenter = self.get_object()
        services.queue_discovery(vcenter)
        return Response({"detail": f"Discovery of {vcenter} queued.", "vcenter": vcenter.pk})


class HostViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """ESXi hosts as discovery found them (read-only)."""

    queryset = Host.objects.select_related("vcenter").annotate(pf_total=Count("pfs")).order_by("vcenter__name", "name")
    serializer_class = HostSerializer
    filterset_class = HostFilterSet
    permission_classes = ADMIN_ONLY


class PhysicalFunctionViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                              mixins.UpdateModelMixin, mixins.DestroyModelMixin,
                              viewsets.GenericViewSet):  # fmt: skip
    """SR-IOV PFs: discovered, or entered by hand where vCenter does not report them."""

    queryset = allocation.with_used(PhysicalFunction.objects.select_related("host").order_by("host__name", "pci_id"))
    serializer_class = PhysicalFunctionSerializer
    filterset_class = PhysicalFunctionFilterSet
    permission_classes = ADMIN_ONLY

    def get_serializer_class(self):
        if self.action in ("update", "partial_update"):
            return PhysicalFunctionUpdateSerializer
        return PhysicalFunctionSerializer

    def perform_create(self, serializer):
        serializer.instance = services.create_pf(serializer.validated_data)

    def perform_update(self, serializer):
        serializer.instance = services.update_pf(serializer.instance, serializer.validated_data)

    def perform_destroy(self, instance):
        services.delete_pf(instance)


class VFAssignmentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, TenantScopedViewSet):
    """VFs held by clusters: site admins see all, tenant members their own clusters' VFs."""

    queryset = VFAssignment.objects.select_related("pf__host", "cluster")
    serializer_class = VFAssignmentSerializer
    filterset_class = VFAssignmentFilterSet
    tenant_field = "cluster__tenant"


class CapacityView(APIView):
    """Used and free VFs per PF and per host, for every vCenter (or ?vcenter=id)."""

    permission_classes = ADMIN_ONLY

    @extend_schema(
        parameters=[OpenApiParameter("vcenter", int, description="Only this vCenter")],
        responses=CapacitySerializer,
    )
    def get(self, request):
        vcenters = VCenter.objects.order_by("name")
        if "vcenter" in request.query_params:
            vcenters = vcenters.filter(pk=int_param(request, "vcenter", 0, 1, None))
        return Response(CapacitySerializer({"vcenters": capacity_report(vcenters)}).data)


def capacity_report(vcenters) -> list[dict]:
    """Per-vCenter capacity with totals (shared by the API and the capacity page); three queries."""
    vcenters = list(vcenters)
    by_vcenter = allocation.capacity_by_vcenter(vcenters)
    report = []
    for vcenter in vcenters:
        hosts = by_vcenter[vcenter.pk]
        totals = {key: sum(h[key] for h in hosts) for key in ("total", "used", "free")}
        report.append({"id": vcenter.pk, "name": vcenter.name, "vcenter": vcenter, "hosts": hosts, **totals})
    return report


def visible_cluster(user, pk) -> VirtualCluster:
    """Another tenant's cluster is a 404, exactly like a missing one."""
    return get_object_or_404(scope(VirtualCluster.objects.select_related("tenant"), user), pk=pk)


class ClusterPlanView(APIView):
    """Dry run of a cluster on vSphere, computed by the worker: poll until `status` is ready or failed."""

    @extend_schema(parameters=[CLUSTER_ID], responses=PlanPreviewSerializer)
    def get(self, request, pk):
        cluster = visible_cluster(request.user, pk)
        return Response(PlanPreviewSerializer(plan_data(cluster)).data)


def plan_data(cluster: VirtualCluster) -> dict:
    """The cluster's plan preview as stored by the worker (asking for one if none is fresh)."""
    preview = previews.request(cluster)
    return {
        "cluster": cluster.pk,
        "state": cluster.state,
        "status": preview.status,
        "requested": preview.requested,
        "finished": preview.finished,
        "vcenter": preview.vcenter or None,
        "changes": preview.changes,
        "error": preview.error,
    }


@extend_schema(parameters=[CLUSTER_ID])
class ClusterOperationLogView(generics.ListAPIView):
    """The reconciler's steps for one cluster, oldest first (poll with ?after=<last id>)."""

    serializer_class = OperationLogSerializer
    filterset_class = OperationLogFilterSet
    ordering_fields = ["id"]
    queryset = OperationLog.objects.none()  # for the schema; get_queryset scopes by cluster

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return OperationLog.objects.none()
        cluster = visible_cluster(self.request.user, self.kwargs["pk"])
        return OperationLog.objects.filter(cluster=cluster).order_by("id")
