"""REST API: fabrics, shared ports and join tokens (site admins), partitions (tenant-scoped), the fabric agent."""

import time

from django.db.models import Count, Q
from django.http import JsonResponse
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.response import Response
from rest_framework.views import APIView

from agents.throttling import NodeRateThrottle
from audit.context import Actor, ActorKind, acting_as
from audit.middleware import client_ip
from fabrics import channel, observed, services
from fabrics.authentication import FabricCredentialAuthentication, IsFabricAgent
from fabrics.filtersets import FabricFilterSet, FabricJoinTokenFilterSet, PartitionFilterSet, SharedPortFilterSet
from fabrics.models import Fabric, FabricJoinToken, PartitionKey, SharedPort
from fabrics.serializers import (
    CreatedFabricJoinTokenSerializer,
    FabricCredentialAnswerSerializer,
    FabricJoinSerializer,
    FabricJoinTokenSerializer,
    FabricSerializer,
    PartitionSerializer,
    SharedPortSerializer,
)
from tenants.api_base import SITE_ADMIN_ONLY, TenantScopedViewSet
from users.throttling import JoinRateThrottle

MAX_WAIT = 60


def with_counts(queryset):
    """Fabrics with their live partitions counted in the same query (lists stay flat in rows)."""
    live = Count("partitions", filter=Q(partitions__released__isnull=True), distinct=True)
    # Meta.ordering is not applied to a GROUP BY query: pages need a stable order.
    return queryset.annotate(live_partitions=live).prefetch_related("host_links", "pool_links").order_by("name")


class FabricViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                    mixins.UpdateModelMixin, viewsets.GenericViewSet):  # fmt: skip
    queryset = with_counts(Fabric.objects.defer("last_report", "desired"))
    serializer_class = FabricSerializer
    permission_classes = SITE_ADMIN_ONLY
    filterset_class = FabricFilterSet

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        hosts, pools = data.pop("hosts", ()), data.pop("pools", ())
        fabric = services.create_fabric(data, hosts, pools)
        serializer.instance = with_counts(Fabric.objects).get(pk=fabric.pk)

    def perform_update(self, serializer):
        data = dict(serializer.validated_data)
        hosts, pools = data.pop("hosts", None), data.pop("pools", None)
        fabric = services.update_fabric(serializer.instance, data, hosts, pools)
        serializer.instance = with_counts(Fabric.objects).get(pk=fabric.pk)


class SharedPortViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                        mixins.DestroyModelMixin, viewsets.GenericViewSet):  # fmt: skip
    queryset = SharedPort.objects.select_related("fabric")
    serializer_class = SharedPortSerializer
    permission_classes = SITE_ADMIN_ONLY
    filterset_class = SharedPortFilterSet

    def perform_create(self, serializer):
        data = serializer.validated_data
        serializer.instance = services.add_shared_port(data["fabric"], data["guid"], data.get("description", ""))

    def perform_destroy(self, instance):
        services.remove_shared_port(instance)


class PartitionViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, TenantScopedViewSet):
    """Tenants' partition keys: site admins see all, tenant members their own tenant's."""

    queryset = PartitionKey.objects.select_related("fabric")
    serializer_class = PartitionSerializer
    filterset_class = PartitionFilterSet


class FabricRateThrottle(NodeRateThrottle):
    """The node agents' per-agent throttle, counted per fabric (request.auth is the Fabric)."""

    scope = "fabric"


class FabricJoinTokenViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                             viewsets.GenericViewSet):  # fmt: skip
    queryset = FabricJoinToken.objects.select_related("fabric")
    serializer_class = FabricJoinTokenSerializer
    permission_classes = SITE_ADMIN_ONLY
    filterset_class = FabricJoinTokenFilterSet

    @extend_schema(request=FabricJoinTokenSerializer, responses={201: CreatedFabricJoinTokenSerializer})
    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token, raw = services.create_join_token(serializer.validated_data["fabric"], serializer.validated_data["hours"])
        return Response(FabricJoinTokenSerializer(token).data | {"token": raw}, status=status.HTTP_201_CREATED)


def _actor(request, label: str) -> Actor:
    return Actor(kind=ActorKind.AGENT, label=label, request_id=getattr(request, "id", ""),
                 source_ip=client_ip(request))  # fmt: skip


class FabricJoinView(APIView):
    """The subnet manager host's fabric agent exchanges its one-time join token for its credential."""

    authentication_classes = []
    permission_classes = []
    throttle_classes = [JoinRateThrottle]
    error_statuses = ("404",)

    @extend_schema(request=FabricJoinSerializer, responses={201: FabricCredentialAnswerSerializer})
    def post(self, request):
        serializer = FabricJoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        host = serializer.validated_data.get("hostname", "")
        with acting_as(_actor(request, f"fabric-agent:{host}" if host else "fabric-agent")):
            _, raw = services.join(serializer.validated_data["token"])
        answer = FabricCredentialAnswerSerializer(services.credential_answer(raw)).data
        return Response(answer, status=status.HTTP_201_CREATED)


class FabricCredentialView(APIView):
    """POST with the current (or, in the grace period, the previous) credential: get a new one."""

    authentication_classes = [FabricCredentialAuthentication]
    permission_classes = [IsFabricAgent]
    throttle_classes = [FabricRateThrottle]

    @extend_schema(request=None, responses={201: FabricCredentialAnswerSerializer})
    def post(self, request, fabric):
        with acting_as(_actor(request, f"fabric-agent:{request.auth.name}")):
            raw = services.rotate_credential(request.auth, request.auth.presented_credential)
        return Response(FabricCredentialAnswerSerializer(services.credential_answer(raw)).data,
                        status=status.HTTP_201_CREATED)  # fmt: skip


def _etag(fabric: Fabric) -> str:
    return f'"{fabric.generation}-{fabric.desired_digest[:16]}"'


class FabricDesiredView(APIView):
    """GET the fabric's desired partitions (fabric_wire's document); If-None-Match → 304, ?wait=N long-polls."""

    authentication_classes = [FabricCredentialAuthentication]
    permission_classes = [IsFabricAgent]
    throttle_classes = [FabricRateThrottle]

    @extend_schema(parameters=[OpenApiParameter("wait", int, description=f"seconds to long-poll (max {MAX_WAIT})")],
                   responses={200: dict, 304: None})  # fmt: skip
    def get(self, request, fabric):
        fabric = request.auth
        Fabric.objects.filter(pk=fabric.pk).update(last_seen=timezone.now())  # one agent per fabric: a write a poll
        known, wait = request.headers.get("If-None-Match"), _bounded(request.query_params.get("wait"))
        waiter = channel.Waiter(fabric.pk) if known and wait else None
        try:
            current = Fabric.objects.only("generation", "desired", "desired_digest").get(pk=fabric.pk)
            deadline = time.monotonic() + wait
            while waiter and known == _etag(current) and (left := deadline - time.monotonic()) > 0:
                if not waiter.wait(left):
                    break
                current = Fabric.objects.only("generation", "desired", "desired_digest").get(pk=fabric.pk)
        finally:
            if waiter:
                waiter.close()
        if known == _etag(current):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": known})
        return JsonResponse(current.desired, headers={"ETag": _etag(current)})


class FabricReportView(APIView):
    """POST what the fabric programmed: each port's P_Key table, errors, the subnet manager's hardening facts."""

    authentication_classes = [FabricCredentialAuthentication]
    permission_classes = [IsFabricAgent]
    throttle_classes = [FabricRateThrottle]

    @extend_schema(request=dict, responses={204: None})
    def post(self, request, fabric):
        report = observed.parse_report(request.data)
        with acting_as(_actor(request, f"fabric-agent:{request.auth.name}")):
            observed.record_report(request.auth, report)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _bounded(text) -> int:
    try:
        return max(0, min(int(text), MAX_WAIT))
    except (TypeError, ValueError):
        return 0
