"""REST API viewsets of the tenants app; every change goes through tenants.services."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status
from rest_framework.decorators import action
from rest_framework.response import Response

from core.errors import Conflict
from tenants import realizers, services
from tenants.access import is_site_admin, require_member, require_owner_or_admin, visible_tenants
from tenants.api_base import TenantScopedViewSet
from tenants.filtersets import (
    ClusterFilterSet,
    MembershipFilterSet,
    QuotaFilterSet,
    TenantFilterSet,
)
from tenants.models import LeaseExtension, Membership, Quota, Tenant, VirtualCluster
from tenants.serializers import (
    ApproveSerializer,
    ClusterAccessSerializer,
    ClusterSerializer,
    ClusterUpdateSerializer,
    ExtendLeaseSerializer,
    ExtensionDecisionSerializer,
    LeaseExtensionSerializer,
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
        user = services.addable_user(data["user"]["username"], self.request.user, tenant)
        serializer.instance = services.set_membership(tenant, user, data["role"])

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

    def get_queryset(self):
        """The user's clusters, with what the site apps' realizers read of their placement (realizers registry)."""
        return super().get_queryset().select_related(*realizers.placement_related())

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

    @extend_schema(request=ExtendLeaseSerializer, responses={200: ClusterSerializer, 202: LeaseExtensionSerializer})
    @action(detail=True, methods=["post"], url_path="extend-lease")
    def extend_lease(self, request, pk=None):
        """Move the lease end later: up to the site's maximum at once (200, the cluster); past it with a
        justification as an extension request for a PI or site admin to decide (202, the extension)."""
        cluster = self.get_object()
        serializer = ExtendLeaseSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        result = services.change_lease(cluster, request.user, data["lease_end"], data["justification"])
        if isinstance(result, LeaseExtension):
            return Response(LeaseExtensionSerializer(result).data, status=status.HTTP_202_ACCEPTED)
        return self._respond(result)

    def _decide(self, request, approve: bool):
        cluster = self.get_object()
        serializer = ExtensionDecisionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        extension = services.pending_extension(cluster)
        if extension is None:
            raise Conflict("No lease extension waits for a decision.")
        decided = services.decide_extension(extension, request.user, approve, serializer.validated_data["reason"])
        return Response(LeaseExtensionSerializer(decided).data)

    @extend_schema(request=None, responses=LeaseExtensionSerializer)
    @action(detail=True, methods=["post"], url_path="approve-extension")
    def approve_extension(self, request, pk=None):
        """Approve the pending lease extension (a PI of the tenant or a site admin): the lease moves."""
        return self._decide(request, True)

    @extend_schema(request=ExtensionDecisionSerializer, responses=LeaseExtensionSerializer)
    @action(detail=True, methods=["post"], url_path="reject-extension")
    def reject_extension(self, request, pk=None):
        """Reject the pending lease extension with a reason."""
        return self._decide(request, False)

    @extend_schema(request=ResizeSerializer, responses=ClusterSerializer)
    @action(detail=True, methods=["post"])
    def resize(self, request, pk=None):
        """Day 2: change the number of workers or add/remove SR-IOV on a live cluster."""
        cluster = self.get_object()
        serializer = ResizeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return self._respond(services.resize_cluster(cluster, request.user, **serializer.validated_data))
