"""REST API of the catalog: items (site admins write), requests from them, and where requests came from."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from catalog import services
from catalog.filtersets import CatalogItemFilterSet, ClusterOriginFilterSet
from catalog.models import ClusterOrigin
from catalog.serializers import (
    CatalogItemCreateSerializer,
    CatalogItemDetailSerializer,
    CatalogItemSerializer,
    CatalogItemVersionSerializer,
    CatalogRequestSerializer,
    ClusterOriginSerializer,
    flatten,
)
from tenants.api_base import TenantScopedViewSet
from tenants.serializers import ClusterSerializer


class ReadOrSiteAdminWrites(permissions.BasePermission):
    """Everyone signed in reads what they may see; only site admins publish (403), requests are separate."""

    def has_permission(self, request, view):
        return request.method in permissions.SAFE_METHODS or view.action == "request_cluster" or request.user.is_staff


class CatalogItemViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                         mixins.UpdateModelMixin, viewsets.GenericViewSet):  # fmt: skip
    """Catalog items; an item another tenant sees but yours does not is a 404."""

    serializer_class = CatalogItemSerializer
    filterset_class = CatalogItemFilterSet
    permission_classes = [permissions.IsAuthenticated, ReadOrSiteAdminWrites]
    queryset = services.CatalogItem.objects.none()  # for the schema; get_queryset scopes by user

    def get_queryset(self):
        return services.visible_items(self.request.user).prefetch_related("tenants").order_by("slug")

    def get_serializer_class(self):
        return {
            "request_cluster": CatalogRequestSerializer, "versions": CatalogItemVersionSerializer,
            "retrieve": CatalogItemDetailSerializer, "create": CatalogItemCreateSerializer,
        }.get(self.action, CatalogItemSerializer)  # fmt: skip

    def perform_create(self, serializer):
        serializer.instance = services.create_item(self.request.user, flatten(serializer.validated_data))

    def perform_update(self, serializer):
        serializer.instance = services.update_item(serializer.instance, self.request.user,
                                                   flatten(serializer.validated_data))  # fmt: skip

    @extend_schema(request=CatalogRequestSerializer, responses={201: ClusterSerializer})
    @action(detail=True, methods=["post"], url_path="request", url_name="request")
    def request_cluster(self, request, pk=None):
        """Request a cluster from the item's current version (the request records the version)."""
        item = self.get_object()
        serializer = CatalogRequestSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        tenant, submit = data.pop("tenant"), data.pop("submit", False)
        cluster = services.request_cluster(item, tenant, request.user, data, submit=submit)
        return Response(ClusterSerializer(cluster, context=self.get_serializer_context()).data,
                        status=status.HTTP_201_CREATED)  # fmt: skip

    @extend_schema(responses=CatalogItemVersionSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def versions(self, request, pk=None):
        """Every version of the item, newest first."""
        item = self.get_object()
        versions = item.versions.select_related("created_by").order_by("-number")
        return Response(CatalogItemVersionSerializer(versions, many=True).data)


class ClusterOriginViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, TenantScopedViewSet):
    """Which catalog item version each cluster request came from (tenant-scoped)."""

    queryset = ClusterOrigin.objects.select_related("cluster", "version__item")
    serializer_class = ClusterOriginSerializer
    filterset_class = ClusterOriginFilterSet
    tenant_field = "cluster__tenant"
