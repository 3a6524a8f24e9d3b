"""Signal receivers: the default isolation policy for every new tenant."""

from django.dispatch import receiver

from netpolicy.policy import create_default_policy
from tenants.models import Tenant
from tenants.signals import tenant_created


@receiver(tenant_created, sender=Tenant, dispatch_uid="netpolicy-default-policy")
def instantiate_default_policy(sender, tenant, **kwargs):
    """Runs inside the tenant-creating transaction, so a failure rolls the tenant back."""
    create_default_policy(tenant)
