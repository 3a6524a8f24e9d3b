"""Fabric agent credentials: `Authorization: Bearer encf_…`, valid only on that fabric's own agent endpoints."""

from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from rest_framework import authentication, exceptions, permissions

from agents.credentials import hash_token
from fabrics.models import Fabric, FabricCredential


class FabricCredentialAuthentication(authentication.BaseAuthentication):
    """Authenticate a fabric agent; request.auth is the Fabric, with the credential it presented."""

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if len(header) != 2 or header[0].lower() != b"bearer":
            return None
        hashed = hash_token(header[1].decode(errors="replace"))
        credential = FabricCredential.objects.select_related("fabric").filter(credential_hash=hashed).first()
        if credential is None:
            raise exceptions.AuthenticationFailed("Invalid fabric credential.")
        if credential.expires_at <= timezone.now():
            raise exceptions.AuthenticationFailed("Fabric credential expired; enrol the agent again.")
        fabric = credential.fabric
        fabric.presented_credential = credential
        return AnonymousUser(), fabric

    def authenticate_header(self, request):
        return "Bearer"


class IsFabricAgent(permissions.BasePermission):
    """Only an authenticated fabric agent, and only for its own fabric in the URL (others look absent)."""

    def has_permission(self, request, view):
        fabric = request.auth
        if not isinstance(fabric, Fabric):
            raise exceptions.NotAuthenticated()
        if fabric.name != view.kwargs.get("fabric"):
            raise exceptions.NotFound()
        return True
