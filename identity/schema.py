"""OpenAPI description of the OpenID provider's access tokens on the API."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ProviderTokenScheme(OpenApiAuthenticationExtension):
    target_class = "identity.oidc.ProviderTokenAuthentication"
    name = "providerToken"

    def get_security_definition(self, auto_schema):
        description = "An access token of the site's OpenID provider (only where OIDC sign-in is on)"
        return {"type": "http", "scheme": "bearer", "description": description}
