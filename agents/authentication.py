"""Node credentials: `Authorization: Bearer encn_…`, valid only on that node's own agent endpoints."""

from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from rest_framework import authentication, exceptions, permissions

from agents import hotpath
from agents.credentials import hash_token
from agents.models import Node


class NodeCredentialAuthentication(authentication.BaseAuthentication):
    """Authenticate a node agent; request.auth is the Node, with the credential it presented."""

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if len(header) != 2 or header[0].lower() != b"bearer":
            return None
        credential = hotpath.credential(hash_token(header[1].decode(errors="replace")))
        # Throttling, parsing and checking a report (1,000 tenants) come next and need no database: a
        # connection held through them, under 2,000 agents, emptied the pool (measured at a fleet's start).
        hotpath.release_if_pooled()
        if credential is None:
            raise exceptions.AuthenticationFailed("Invalid node credential.")
        if credential.expires_at <= timezone.now():
            raise exceptions.AuthenticationFailed("Node credential expired; re-enrol the node.")
        node = credential.node
        node.presented_credential = credential
        return AnonymousUser(), node

    def authenticate_header(self, request):
        return "Bearer"


class IsNode(permissions.BasePermission):
    """Only an authenticated node, and only for its own name in the URL (others look absent)."""

    def has_permission(self, request, view):
        node = request.auth
        if not isinstance(node, Node):
            raise exceptions.NotAuthenticated()
        if node.name != view.kwargs.get("node"):
            raise exceptions.NotFound()
        return True
