"""API for a user's own tokens; creation returns the plaintext once."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from users import services
from users.filtersets import TokenFilterSet
from users.models import APIToken
from users.serializers import CreatedTokenSerializer, MeSerializer, TokenSerializer


class TokenViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                   viewsets.GenericViewSet):  # fmt: skip
    """Everyone manages only their own tokens; nobody, admins included, sees another's."""

    serializer_class = TokenSerializer
    queryset = APIToken.objects.all()
    filterset_class = TokenFilterSet

    def get_queryset(self):
        return APIToken.objects.filter(user=self.request.user).select_related("user")

    @extend_schema(request=TokenSerializer, responses={201: CreatedTokenSerializer})
    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        via = request.auth if isinstance(request.auth, APIToken) else None
        # Any other credential in request.auth is a bearer token of the OpenID provider (session: None).
        provider = request.auth is not None and via is None
        token, raw = services.create_token(request.user, **serializer.validated_data, via=via, via_provider=provider)
        data = TokenSerializer(token).data | {"token": raw}
        return Response(data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=TokenSerializer)
    @action(detail=True, methods=["post"])
    def revoke(self, request, pk=None):
        """Revoke the token; it stops working at once."""
        return Response(TokenSerializer(services.revoke_token(self.get_object())).data)


class MeView(APIView):
    """The caller: account, tenants with roles, and the token used (`enclave whoami`)."""

    @extend_schema(responses=MeSerializer)
    def get(self, request):
        user = request.user
        token = request.auth if isinstance(request.auth, APIToken) else None
        memberships = list(user.memberships.select_related("tenant").order_by("tenant__slug"))
        data = {"username": user.username, "get_full_name": user.get_full_name(), "email": user.email,
                "is_staff": user.is_staff, "memberships": memberships, "token": token}  # fmt: skip
        return Response(MeSerializer(data).data)
