"""OpenAPI description of the bearer token scheme."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "users.authentication.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": "A personal API token (enc_…)"}


class NodeCredentialScheme(OpenApiAuthenticationExtension):
    target_class = "agents.authentication.NodeCredentialAuthentication"
    name = "nodeCredential"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": "A node agent's credential (encn_…)"}
