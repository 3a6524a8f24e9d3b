"""Set a node's underlay interfaces (name=CIDR …), e.g. for nodes whose agent does not report them."""

from django.core.management.base import BaseCommand, CommandError

from agents import services
from agents.models import Node
from audit.context import acting_as, system_actor
from core.errors import ServiceError


class Command(BaseCommand):
    help = "Set a node's underlay interfaces: node_interfaces NODE em1=10.0.0.5/24 [ib0=…]"

    def add_arguments(self, parser):
        parser.add_argument("node")
        parser.add_argument("interfaces", nargs="+", help="NAME=ADDRESS/PREFIX")

    def handle(self, node, interfaces, **options):
        target = Node.objects.filter(name=node).first()
        if target is None:
            raise CommandError(f"No node named {node!r}.")
        parsed = [dict(zip(("name", "address"), item.split("=", 1), strict=False)) for item in interfaces]
        address = parsed[0].get("address", "").split("/")[0]
        try:
            with acting_as(system_actor("node_interfaces")):
                services.update_node(target, interfaces=parsed, address=address)
        except ServiceError as exc:  # the agent's grammar refused a value
            raise CommandError(exc.detail) from None
        self.stdout.write(f"{node}: {', '.join(interfaces)}")
