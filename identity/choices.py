"""What a directory group can grant, and where a user's groups come from."""

from django.db import models


class RuleAction(models.TextChoices):
    OWNER = "owner", "Owner (PI) of the tenant"
    MEMBER = "member", "Member of the tenant"
    SITE_ADMIN = "site_admin", "Site admin"


class Source(models.TextChoices):
    LDAP = "ldap", "LDAP"
    OIDC = "oidc", "OpenID Connect"


TENANT_ACTIONS = (RuleAction.OWNER, RuleAction.MEMBER)
