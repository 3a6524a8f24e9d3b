"""REST API of the nsx app: managers for site admins, realization of each object for its tenant."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from nsx import services
from nsx.filtersets import NsxObjectFilterSet
from nsx.models import NsxManager, NsxObject
from nsx.serializers import NsxCheckQueuedSerializer, NsxManagerSerializer, NsxObjectSerializer
from tenants.api_base import SITE_ADMIN_ONLY, TenantScopedViewSet


class NsxManagerViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                        mixins.UpdateModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet):  # fmt: skip
    """The NSX Manager of a vCenter: where its overlay segments and distributed firewall are realized."""

    queryset = NsxManager.objects.select_related("vcenter").order_by("vcenter__name")
    serializer_class = NsxManagerSerializer
    permission_classes = SITE_ADMIN_ONLY

    def perform_create(self, serializer):
        serializer.instance = services.create_manager(serializer.validated_data)

    def perform_update(self, serializer):
        serializer.instance = services.update_manager(serializer.instance, serializer.validated_data)

    def perform_destroy(self, instance):
        services.delete_manager(instance)

    @extend_schema(request=None, responses=NsxCheckQueuedSerializer)
    @action(detail=True, methods=["post"])
    def check(self, request, pk=None):
        """Queue a reachability check (credentials, transport zone, tier-0) for the worker."""
        manager = self.get_object()
        services.queue_check(manager)
        return Response({"detail": f"Check of {manager} queued.", "manager": manager.pk})


class NsxObjectViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, TenantScopedViewSet):
    """Objects Enclave owns in NSX and their realization: site admins see all, members their tenant's."""

    queryset = NsxObject.objects.order_by("pk")
    serializer_class = NsxObjectSerializer
    filterset_class = NsxObjectFilterSet
