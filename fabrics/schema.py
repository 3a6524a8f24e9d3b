"""OpenAPI description of the fabric agent's credential."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class FabricCredentialScheme(OpenApiAuthenticationExtension):
    target_class = "fabrics.authentication.FabricCredentialAuthentication"
    name = "fabricCredential"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": "A fabric agent's credential (encf_…)"}
