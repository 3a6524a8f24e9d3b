"""REST API viewsets of the tenants app; every change goes through tenants.services."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status
from rest_framework.decorators import action
from rest_framework.response import Response

from portal.api import TenantScopedViewSet
from tenants import realizers, services
from tenants.access import is_site_admin, require_member, require_owner_or_admin, visible_tenants
from tenants.filtersets import (
    ClusterFilterSet,
    MembershipFilterSet,
    QuotaFilterSet,
    TenantFilterSet,
)
from tenants.models import Membership, Quota, Tenant, VirtualCluster
from tenants.serializers import (
    ApproveSerializer,
    ClusterAccessSerializer,
    ClusterSerializer,
    ClusterUpdateSerializer,
    ExtendLeaseSerializer,
    MembershipSerializer,
    QuotaSerializer,
    RejectSerializer,
    ResizeSerializer,
    TenantSerializer,
)


class IsSiteAdminOrReadOnly(permissions.BasePermission):
    """Reads for members; writes only for site admins."""

    def has_permission(self, request, view):
        return request.method in permissions.SAFE_METHODS or request.user.is_staff


class TenantViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                    TenantScopedViewSet):  # fmt: skip
    queryset = Tenant.objects.all()
    serializer_class = TenantSerializer
    filterset_class = TenantFilterSet
    permission_classes = [permissions.IsAuthenticated, IsSiteAdminOrReadOnly]

    def get_queryset(self):
        return visible_tenants(self.request.user).order_by("slug")

    def perform_create(self, serializer):
        data = serializer.validated_data
        serializer.instance = services.create_tenant(data["slug"], data["name"], data.get("description", ""))


class MembershipViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                        mixins.DestroyModelMixin, TenantScopedViewSet):  # fmt: skip
    queryset = Membership.objects.select_related("user", "tenant")
    serializer_class = MembershipSerializer
    filterset_class = MembershipFilterSet

    def perform_create(self, serializer):
        tenant = serializer.validated_data["tenant"]
        require_member(self.request.user, tenant)
        require_owner_or_admin(self.request.user, tenant)
        data = serializer.validated_data
        serializer.instance = services.set_membership(tenant, data["user"], data["role"])

    def perform_destroy(self, instance):
        require_owner_or_admin(self.request.user, instance.tenant_id)
        services.remove_membership(instance)


class QuotaViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.UpdateModelMixin,
                   TenantScopedViewSet):  # fmt: skip
    queryset = Quota.objects.select_related("tenant")
    serializer_class = QuotaSerializer
    filterset_class = QuotaFilterSet
    permission_classes = [permissions.IsAuthenticated, IsSiteAdminOrReadOnly]

    def perform_update(self, serializer):
        serializer.instance = services.update_quota(serializer.instance, **serializer.validated_data)


class ClusterViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                     mixins.UpdateModelMixin, TenantScopedViewSet):  # fmt: skip
    queryset = VirtualCluster.objects.select_related("tenant", "requested_by")
    serializer_class = ClusterSerializer
    filterset_class = ClusterFilterSet
    ordering_fields = ["created", "name", "state", "lease_end"]

    def get_serializer_class(self):
        if self.action in ("update", "partial_update"):
            return ClusterUpdateSerializer
        actions = {"approve": ApproveSerializer, "reject": RejectSerializer, "extend_lease": ExtendLeaseSerializer,
                   "resize": ResizeSerializer}  # fmt: skip
        return actions.get(self.action, ClusterSerializer)

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        submit, tenant = data.pop("submit", False), data.pop("tenant")
        serializer.instance = services.create_cluster(tenant, self.request.user, data, submit=submit)

    def perform_update(self, serializer):
        data = dict(serializer.validated_data)
        data.pop("submit", None)
        serializer.instance = services.update_draft(serializer.instance, self.request.user, data)

    def _respond(self, cluster, code=status.HTTP_200_OK):
        return Response(ClusterSerializer(cluster, context=self.get_serializer_context()).data, status=code)

    @extend_schema(request=None, responses=ClusterSerializer)
    @action(detail=True, methods=["post"])
    def submit(self, request, pk=None):
        """Submit a draft for endorsement (members) or approval (owners)."""
        return self._respond(services.submit_cluster(self.get_object(), request.user))

    @extend_schema(request=None, responses=ClusterSerializer)
    @action(detail=True, methods=["post"])
    def endorse(self, request, pk=None):
        """Endorse a member's request (tenant owners)."""
        return self._respond(services.endorse_cluster(self.get_object(), request.user))

    @extend_schema(request=ApproveSerializer, responses=ClusterSerializer)
    @action(detail=True, methods=["post"])
    def approve(self, request, pk=None):
        """Approve an endorsed request (site admins): the site reserves what it needs; queues reconciliation."""
        cluster = self.get_object()
        serializer = ApproveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        named = "site" in data and is_site_admin(request.user)  # others are refused by the service (403)
        site = realizers.find_site(data["site_kind"], data["site"]) if named else None
        return self._respond(services.approve_cluster(cluster, request.user, site=site))

    @extend_schema(responses=ClusterAccessSerializer)
    @action(detail=True, methods=["get"])
    def access(self, request, pk=None):
        """How to reach the cluster: login host name and address, SSH command, every VM with role and addresses."""
        cluster = self.get_object()
        view = realizers.for_cluster(cluster).observe(cluster)
        return Response(ClusterAccessSerializer(view.as_dict(request.user.username)).data)

    @extend_schema(request=RejectSerializer, responses=ClusterSerializer)
    @action(detail=True, methods=["post"])
    def reject(self, request, pk=None):
        """Reject a pending request with a reason."""
        cluster = self.get_object()
        serializer = RejectSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return self._respond(services.reject_cluster(cluster, request.user, serializer.validated_data["reason"]))

    @extend_schema(request=None, responses=ClusterSerializer)
    @action(detail=True, methods=["post"])
    def decommission(self, request, pk=None):
        """Withdraw a pending request or tear down a realized cluster."""
        return self._respond(services.decommission_cluster(self.get_object(), request.user))

    @extend_schema(request=ExtendLeaseSerializer, responses=ClusterSerializer)
    @action(detail=True, methods=["post"], url_path="extend-lease")
    def extend_lease(self, request, pk=None):
        """Move the lease end to a later date."""
        cluster = self.get_object()
        serializer = ExtendLeaseSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return self._respond(services.extend_lease(cluster, request.user, serializer.validated_data["lease_end"]))

    @extend_schema(request=ResizeSerializer, responses=ClusterSerializer)
    @action(detail=True, methods=["post"])
    def resize(self, request, pk=None):
        """Day 2: change the number of workers or add/remove SR-IOV on a live cluster."""
        cluster = self.get_object()
        serializer = ResizeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return self._respond(services.resize_cluster(cluster, request.user, **serializer.validated_data))
