"""REST API of the netpolicy app; every change goes through the service modules."""

from django.db.models import Q
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from core.errors import InvalidRequest, NotFound
from netpolicy import allocation, checks, findings, node_pools, policy, rules, segments, whatif
from netpolicy.choices import SegmentState
from netpolicy.compiler import nft, nsx
from netpolicy.compiler.model import PolicyError
from netpolicy.filtersets import (
    FirewallPolicyFilterSet,
    FirewallRuleFilterSet,
    GroupFilterSet,
    PoolFilterSet,
    SegmentFilterSet,
    ServiceFilterSet,
)
from netpolicy.models import FirewallPolicy, FirewallRule, Group, Pool, Segment, Service
from netpolicy.rule_members import attach_member_ids
from netpolicy.serializers import (
    FirewallPolicySerializer,
    FirewallRuleSerializer,
    GroupSerializer,
    PoolSerializer,
    SegmentDetailSerializer,
    SegmentSerializer,
    ServiceSerializer,
    WhatIfSerializer,
)
from tenants.access import is_site_admin, tenant_ids, viewer
from tenants.api_base import TenantScopedViewSet
from tenants.models import Tenant

CRUD = (
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
)


class SiteOrOwnTenantMixin:
    """Objects of the user's tenants plus site-wide ones (tenant is null); others are 404."""

    tenant_field = "tenant"

    def get_queryset(self):
        queryset = super().get_queryset()
        if is_site_admin(self.request.user):
            return queryset
        own = Q(**{f"{self.tenant_field}__in": tenant_ids(self.request.user)})
        return queryset.filter(own | Q(**{f"{self.tenant_field}__isnull": True}))


class PoolViewSet(
    SiteOrOwnTenantMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Id and address pools; site admins define them, tenants see shared and reserved ones."""

    queryset = allocation.with_usage(Pool.objects.all())
    serializer_class = PoolSerializer
    filterset_class = PoolFilterSet

    def perform_create(self, serializer):
        serializer.instance = allocation.create_pool(self.request.user, serializer.validated_data)


class SegmentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, TenantScopedViewSet):
    """Segments; ids and subnets come next-free from the pools unless given explicitly."""

    queryset = Segment.objects.select_related("tenant")
    serializer_class = SegmentSerializer
    filterset_class = SegmentFilterSet

    def get_queryset(self):
        return node_pools.with_pools(super().get_queryset())

    def get_serializer_class(self):
        return SegmentDetailSerializer if self.action == "retrieve" else SegmentSerializer

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        tenant = data.pop("tenant")
        serializer.instance = segments.create_segment(tenant, self.request.user, data)

    def _transition(self, name, state):
        segment = segments.transition_segment(self.get_object(), self.request.user, name, state)
        return Response(SegmentSerializer(segment, context=self.get_serializer_context()).data)

    @extend_schema(request=None, responses=SegmentSerializer)
    @action(detail=True, methods=["post"])
    def approve(self, request, pk=None):
        """Approve a requested segment (site admins)."""
        return self._transition("approve", SegmentState.APPROVED)

    @extend_schema(request=None, responses=SegmentSerializer)
    @action(detail=True, methods=["post"])
    def reject(self, request, pk=None):
        """Reject a requested segment (site admins); its ids return to the pool."""
        return self._transition("reject", SegmentState.REJECTED)

    @extend_schema(request=None, responses=SegmentSerializer)
    @action(detail=True, methods=["post"])
    def retire(self, request, pk=None):
        """Retire a segment; its ids and subnet return to the pools."""
        return self._transition("retire", SegmentState.RETIRED)


class ServiceViewSet(*CRUD, viewsets.GenericViewSet):
    """The service catalogue: readable by all, edited by site admins."""

    queryset = Service.objects.all()
    serializer_class = ServiceSerializer
    filterset_class = ServiceFilterSet

    def perform_create(self, serializer):
        serializer.instance = policy.save_service(self.request.user, dict(serializer.validated_data))

    def perform_update(self, serializer):
        serializer.instance = policy.save_service(
            self.request.user, dict(serializer.validated_data), serializer.instance
        )

    # Services are kept for the audit trail (stop using one instead): no DELETE, so the schema offers none.
    http_method_names = ["get", "post", "put", "patch", "head", "options"]


class GroupViewSet(SiteOrOwnTenantMixin, *CRUD, viewsets.GenericViewSet):
    # By tenant id, not slug: the unique (tenant, name) index then gives a page without sorting every group.
    queryset = Group.objects.select_related("tenant").order_by("tenant_id", "name")
    serializer_class = GroupSerializer
    filterset_class = GroupFilterSet

    def perform_create(self, serializer):
        serializer.instance = policy.save_group(self.request.user, dict(serializer.validated_data))

    def perform_update(self, serializer):
        serializer.instance = policy.save_group(self.request.user, dict(serializer.validated_data), serializer.instance)

    def perform_destroy(self, instance):
        policy.delete_group(self.request.user, instance)


class FirewallPolicyViewSet(SiteOrOwnTenantMixin, *CRUD, viewsets.GenericViewSet):
    queryset = FirewallPolicy.objects.select_related("tenant")
    serializer_class = FirewallPolicySerializer
    filterset_class = FirewallPolicyFilterSet

    def perform_create(self, serializer):
        serializer.instance = rules.save_policy(self.request.user, dict(serializer.validated_data))

    def perform_update(self, serializer):
        serializer.instance = rules.save_policy(self.request.user, dict(serializer.validated_data), serializer.instance)

    def perform_destroy(self, instance):
        rules.delete_policy(self.request.user, instance)


class FirewallRuleViewSet(SiteOrOwnTenantMixin, *CRUD, viewsets.GenericViewSet):
    """Rules with their analysis findings (shadowed, redundant, exposes another tenant)."""

    # By policy id, not the policy's own order: the first page is then an index scan of
    # rule_sequence_unique (3 ms at 140,000 rules) instead of a join and sort of every rule (94 ms).
    queryset = (
        FirewallRule.objects.select_related("policy")
        .prefetch_related("sources", "destinations", "services")
        .order_by("policy_id", "sequence")
    )
    serializer_class = FirewallRuleSerializer
    filterset_class = FirewallRuleFilterSet
    tenant_field = "policy__tenant"

    def list(self, request, *args, **kwargs):
        rules = self.filter_queryset(self.get_queryset()).prefetch_related(None)  # ids instead, below
        page = attach_member_ids(self.paginate_queryset(rules))
        context = self.get_serializer_context()
        context["findings"] = findings.findings({r.policy.tenant_id for r in page}, viewer(request.user))
        return self.get_paginated_response(FirewallRuleSerializer(page, many=True, context=context).data)

    def _respond(self, rule, code=status.HTTP_200_OK):
        context = self.get_serializer_context()
        context["findings"] = findings.findings({rule.policy.tenant_id}, viewer(self.request.user))
        return Response(FirewallRuleSerializer(rule, context=context).data, status=code)

    def retrieve(self, request, *args, **kwargs):
        return self._respond(self.get_object())

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rule = rules.save_rule(request.user, dict(serializer.validated_data))
        return self._respond(rule, status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        instance = self.get_object()
        serializer = self.get_serializer(instance, data=request.data, partial=kwargs.get("partial", False))
        serializer.is_valid(raise_exception=True)
        return self._respond(rules.save_rule(request.user, dict(serializer.validated_data), instance))

    def perform_destroy(self, instance):
        rules.delete_rule(self.request.user, instance)


class WhatIfViewSet(viewsets.GenericViewSet):
    """Can X reach Y on proto/port, and which rule decides?"""

    serializer_class = WhatIfSerializer

    @extend_schema(request=WhatIfSerializer, responses={200: OpenApiTypes.OBJECT})  # an answer, nothing created
    def create(self, request):
        """Site admins ask about any traffic; everyone else about traffic to or from their own tenants (403)."""
        serializer = WhatIfSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        return Response(
            whatif.answer(request.user, data["source"], data["destination"], data["protocol"], data.get("port"))
        )


class ExportViewSet(viewsets.GenericViewSet):
    """Compiled policy downloads (site admins): the node's nftables ruleset and the NSX body."""

    serializer_class = None
    error_statuses = ("404", "409")  # 404 for everyone but site admins; 409 while the site does not compile

    def initial(self, request, *args, **kwargs):
        """Like other admin-only routes, the exports do not exist for anyone else (404)."""
        super().initial(request, *args, **kwargs)
        if not is_site_admin(request.user):
            raise NotFound("Not found.")

    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR})
    @action(detail=False, methods=["get"])
    def nft(self, request):
        """The full `table inet enclave` ruleset for a Linux node (`nft -f` it)."""
        built = checks.site_for_reading()
        text = _compiled(nft.compile_ruleset, built.site)
        notes = "".join(f"# tenant {slug} quarantined: its policy does not compile\n" for slug in _slugs(built))
        response = _download(notes + text, "text/plain; charset=utf-8", "enclave.nft", built)
        return response

    @extend_schema(
        parameters=[OpenApiParameter("domain", str, default="default", pattern=r"^[A-Za-z0-9_-]{1,64}$",
                                     description="The NSX domain id the groups and policies go under")],
        responses={(200, "application/json"): OpenApiTypes.OBJECT},
    )  # fmt: skip
    @action(detail=False, methods=["get"])
    def nsx(self, request):
        """The hierarchical body for `PATCH /policy/api/v1/infra`."""
        domain = request.query_params.get("domain", "default")
        if not nsx.DOMAIN_RE.fullmatch(domain):
            raise InvalidRequest("An NSX domain id is 1-64 letters, digits, '_' or '-'.", "domain")
        built = checks.site_for_reading()
        text = _compiled(nsx.export_infra_json, built.site, domain)
        return _download(text, "application/json", "enclave-nsx-infra.json", built)


def _compiled(compiler, *args):
    try:
        return compiler(*args)
    except PolicyError as exc:
        raise checks.site_broken(exc) from None


def _slugs(built) -> list[str]:
    return sorted(Tenant.objects.filter(pk__in=built.broken).values_list("slug", flat=True))


def _download(text: str, content_type: str, filename: str, built) -> HttpResponse:
    """An export; quarantined tenants (their policy does not compile; all traffic rejected) are named."""
    response = HttpResponse(text, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    if built.broken:
        response["X-Enclave-Quarantined"] = ",".join(_slugs(built))
    return response
