"""Set a node's underlay interfaces (name=CIDR …), e.g. for nodes whose agent does not report them."""

import ipaddress

from django.core.management.base import BaseCommand, CommandError

from agents import services
from agents.models import Node
from audit.context import acting_as, system_actor


class Command(BaseCommand):
    help = "Set a node's underlay interfaces: node_interfaces NODE em1=10.0.0.5/24 [ib0=…]"

    def add_arguments(self, parser):
        parser.add_argument("node")
        parser.add_argument("interfaces", nargs="+", help="NAME=ADDRESS/PREFIX")

    def handle(self, node, interfaces, **options):
        target = Node.objects.filter(name=node).first()
        if target is None:
            raise CommandError(f"No node named {node!r}.")
        parsed = []
        for item in interfaces:
            name, _, address = item.partition("=")
            try:
                ipaddress.ip_interface(address)
            except ValueError as exc:
                raise CommandError(f"{item}: {exc}") from None
            parsed.append({"name": name, "address": address})
        with acting_as(system_actor("node_interfaces")):
            services.update_node(target, interfaces=parsed, address=parsed[0]["address"].split("/")[0])
        self.stdout.write(f"{node}: {', '.join(interfaces)}")
