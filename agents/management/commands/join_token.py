"""Print a one-time join token for a node pool (for scripts; admins can also use the Nodes page)."""

from django.core.management.base import BaseCommand, CommandError

from agents import services
from agents.models import NodePool
from audit.context import acting_as, system_actor
from core.errors import ServiceError


class Command(BaseCommand):
    help = "Create a one-time join token for POOL and print it."

    def add_arguments(self, parser):
        parser.add_argument("pool")
        parser.add_argument("--node", default="", help="hostname the token may (re-)enrol")
        parser.add_argument("--hours", type=int, default=1)

    def handle(self, pool, node, hours, **options):
        target = NodePool.objects.filter(name=pool).first()
        if target is None:
            raise CommandError(f"No node pool named {pool!r}.")
        try:
            with acting_as(system_actor("join_token")):
                _, raw = services.create_join_token(target, node, hours)
        except ServiceError as exc:
            raise CommandError(exc.detail) from None
        self.stdout.write(raw)
