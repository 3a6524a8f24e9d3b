"""REST API: admin management of pools, nodes and join tokens; the node agents' own endpoints."""

import random
import time

from django.db.models import F
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from enclave_agent import wire
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from agents import desired, documents, hotpath, longpoll, services
from agents.authentication import IsNode, NodeCredentialAuthentication
from agents.models import JoinToken, Node, NodePool, PoolSubnet
from agents.serializers import (
    CreatedJoinTokenSerializer,
    CredentialAnswerSerializer,
    JoinAnswerSerializer,
    JoinSerializer,
    JoinTokenSerializer,
    NodePoolSerializer,
    NodeSerializer,
    NodeSummarySerializer,
    ObservedStateSerializer,
    PoolSubnetSerializer,
)
from agents.throttling import NodeRateThrottle
from audit.context import Actor, ActorKind, acting_as
from audit.middleware import client_ip
from core.errors import Conflict, InvalidRequest
from tenants.api_base import SITE_ADMIN_ONLY
from users.throttling import JoinRateThrottle

MAX_WAIT = 60
WIRE_PATTERN = r"\A[1-9][0-9]?(,[1-9][0-9]?){0,15}\Z"  # enclave_agent.wire.parse_reads_header's spelling
# A poll is held for a random 75-100% of the wait it asked for: nodes that parked together (a pool
# change answers them all at once) would otherwise all renew together, every wait, for ever.
HOLD_JITTER = 0.25


class NodePoolViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                      viewsets.GenericViewSet):  # fmt: skip
    queryset = NodePool.objects.prefetch_related("subnets")
    serializer_class = NodePoolSerializer
    permission_classes = SITE_ADMIN_ONLY
    filterset_fields = ["name"]

    def perform_create(self, serializer):
        serializer.instance = services.create_pool(**serializer.validated_data)


class PoolSubnetViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                        viewsets.GenericViewSet):  # fmt: skip
    queryset = PoolSubnet.objects.select_related("pool")
    serializer_class = PoolSubnetSerializer
    permission_classes = SITE_ADMIN_ONLY
    filterset_fields = ["pool"]

    def perform_create(self, serializer):
        serializer.instance = services.add_subnet(**serializer.validated_data)


class NodeViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.UpdateModelMixin,
                  viewsets.GenericViewSet):  # fmt: skip
    queryset = Node.objects.select_related("pool").prefetch_related("credentials").defer("desired_node")
    serializer_class = NodeSerializer
    permission_classes = SITE_ADMIN_ONLY
    filterset_fields = ["pool", "status"]

    def get_serializer_class(self):
        return NodeSummarySerializer if self.action == "list" else NodeSerializer

    def get_queryset(self):
        """The list reads no reports: 50 nodes of 1,000-tenant pools were 2 MB of JSON to decode and send."""
        queryset = super().get_queryset().annotate(pool_schema=F("pool__document__schema"))  # a join, not a query
        return queryset.defer("last_report") if self.action == "list" else queryset

    def perform_update(self, serializer):
        serializer.instance = services.update_node(serializer.instance, **serializer.validated_data)

    @extend_schema(request=None, responses={200: NodeSerializer})
    @action(detail=True, methods=["post"], url_path="revoke-credential")
    def revoke_credential(self, request, pk=None):
        """Revoke every credential of the node now; it must re-enrol with a join token naming it."""
        node = services.revoke_credentials(self.get_object())
        return Response(NodeSerializer(Node.objects.prefetch_related("credentials").get(pk=node.pk)).data)


class JoinTokenViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                       viewsets.GenericViewSet):  # fmt: skip
    queryset = JoinToken.objects.select_related("pool")
    serializer_class = JoinTokenSerializer
    permission_classes = SITE_ADMIN_ONLY
    filterset_fields = ["pool"]

    @extend_schema(request=JoinTokenSerializer, responses={201: CreatedJoinTokenSerializer})
    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        token, raw = services.create_join_token(data["pool"], data.get("node_name", ""), data["hours"])
        return Response(JoinTokenSerializer(token).data | {"token": raw}, status=status.HTTP_201_CREATED)


def _agent_actor(request, label: str) -> Actor:
    return Actor(kind=ActorKind.AGENT, label=label, request_id=getattr(request, "id", ""),
                 source_ip=client_ip(request))  # fmt: skip


class JoinView(APIView):
    """A new node exchanges its one-time join token for its own credential."""

    authentication_classes = []
    permission_classes = []
    throttle_classes = [JoinRateThrottle]  # join tokens are one-time; guessing them is throttled per address

    @extend_schema(request=JoinSerializer, responses={201: JoinAnswerSerializer})
    def post(self, request):
        serializer = JoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        with acting_as(_agent_actor(request, f"agent:{data['hostname']}")):
            node, raw = services.join(data["token"], data["hostname"], data["capabilities"], data["interfaces"],
                                      data.get("reads"))  # fmt: skip
        answer = {"node": node.name} | services.credential_answer(raw)
        return Response(JoinAnswerSerializer(answer).data, status=status.HTTP_201_CREATED)


class CredentialView(APIView):
    """POST with the current (or, during the grace period, the previous) credential: get a new one."""

    authentication_classes = [NodeCredentialAuthentication]
    permission_classes = [IsNode]
    throttle_classes = [NodeRateThrottle]

    @extend_schema(request=None, responses={201: CredentialAnswerSerializer})
    def post(self, request, node):
        with acting_as(_agent_actor(request, f"agent:{request.auth.name}")):
            _, raw = services.rotate_credential(request.auth, request.auth.presented_credential)
        return Response(CredentialAnswerSerializer(services.credential_answer(raw)).data,
                        status=status.HTTP_201_CREATED)  # fmt: skip


class DesiredStateView(APIView):
    """GET the node's desired state; with If-None-Match and ?wait=N it long-polls until it changes.

    The document is compiled when intent changes (agents.refresh) and only read here."""

    authentication_classes = [NodeCredentialAuthentication]
    permission_classes = [IsNode]
    throttle_classes = [NodeRateThrottle]

    error_statuses = ("400", "409")

    @extend_schema(parameters=[OpenApiParameter("wait", int, description=f"seconds to long-poll (max {MAX_WAIT})"),
                               OpenApiParameter(wire.WIRE_HEADER, str, OpenApiParameter.HEADER, pattern=WIRE_PATTERN,
                                                description="the document schemas the agent reads, e.g. 1,2")],
                   responses={200: dict, 304: None, 503: dict})  # fmt: skip
    def get(self, request, node):
        node = request.auth
        try:
            reads = documents.readable(node.wire_reads, request.headers.get(wire.WIRE_HEADER))
        except wire.SchemaError as exc:
            raise InvalidRequest(str(exc), field=wire.WIRE_HEADER) from None
        services.touch(node)
        wait = _bounded_int(request.query_params.get("wait"), MAX_WAIT)
        known = request.headers.get("If-None-Match")
        # Subscribe before reading; while wake-ups cannot be heard (up to 5 s) hold no database connection.
        waiter = longpoll.Waiter(node.pk, before_waiting=hotpath.release) if wait and known else None
        try:
            state = documents.current(node.pk)
            if waiter and not (state and documents.refusal(state, reads)):  # a refused node is answered now
                state = _wait_for_change(waiter, node.pk, state, known, wait)
        finally:
            if waiter:
                waiter.close()
        if state is None:
            return Response({"detail": "The desired state is being compiled; retry shortly."},
                            status=status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "5"})  # fmt: skip
        if refused := documents.refusal(state, reads):
            raise Conflict(refused)
        if desired.same_document(known, state.etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": known, "Vary": "Accept-Encoding"})
        fragment = documents.fragment(state)
        # Compressing (once per pool change) and sending to a slow reader take long: hand the pooled
        # connection back first, or 80 slow nodes hold every connection of the site (measured).
        hotpath.release()
        gzip = documents.accepts_gzip(request.headers.get("Accept-Encoding"))
        content, tag = documents.body(state, fragment, gzip)
        headers = {"ETag": tag, "Vary": "Accept-Encoding"} | ({"Content-Encoding": wire.GZIP} if gzip else {})
        return HttpResponse(content, content_type="application/json", headers=headers)


class ObservedStateView(APIView):
    """POST what the agent applied: generation, per-tenant status and errors."""

    authentication_classes = [NodeCredentialAuthentication]
    permission_classes = [IsNode]
    throttle_classes = [NodeRateThrottle]

    @extend_schema(request=ObservedStateSerializer, responses={204: None})
    def post(self, request, node):
        serializer = ObservedStateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        with acting_as(_agent_actor(request, f"agent:{request.auth.name}")):
            services.record_observed(request.auth, serializer.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _wait_for_change(waiter, node_id: int, state, known: str, wait: int):
    """Wait while the node's document is still `known`; a wake that changed nothing waits on.

    The sweep wakes every live node behind its generation (a lost wake-up); one that already holds
    its document (it failed to apply it) would otherwise re-poll at once, every sweep."""
    deadline = time.monotonic() + wait * (1 - HOLD_JITTER * random.random())
    while state and desired.same_document(known, state.etag) and (left := deadline - time.monotonic()) > 0:
        hotpath.release()  # a parked poll holds no database connection (2,000 nodes)
        if not waiter.wait(left):
            break
        state = documents.current(node_id)
    return state


def _bounded_int(text, upper: int) -> int:
    try:
        return max(0, min(int(text), upper))
    except (TypeError, ValueError):
        return 0
