"""Give every tenant that lacks one the default isolation policy (tenants created before netpolicy)."""

from django.core.management.base import BaseCommand
from django.db import transaction

from audit.context import acting_as, system_actor
from netpolicy.models import FirewallPolicy
from netpolicy.policy import create_default_policy
from tenants.models import Tenant


class Command(BaseCommand):
    help = "Create the default isolation policy for tenants that have no policy yet (idempotent)."

    def handle(self, *args, **options):
        missing = Tenant.objects.exclude(pk__in=FirewallPolicy.objects.filter(tenant__isnull=False).values("tenant"))
        with acting_as(system_actor("ensure_default_policies")):
            for tenant in missing:
                with transaction.atomic():
                    create_default_policy(tenant)
                self.stdout.write(f"default policy created for {tenant}")
