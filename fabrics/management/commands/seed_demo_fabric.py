"""Seed the demo site's InfiniBand fabric 'ib0' (OpenSM), with the demo node pool and a shared storage port."""

from django.core.management.base import BaseCommand
from django.db import transaction

from agents.models import NodePool
from audit.context import acting_as, system_actor
from fabrics import services
from fabrics.models import Fabric

DEMO = {"name": "ib0", "kind": "opensm", "description": "Demo fabric: OpenSM on the subnet manager host",
        "pkey_first": 0x0100, "pkey_last": 0x7FFE, "cooldown_minutes": 60}  # fmt: skip
STORAGE = "0x0002c90300001001"


class Command(BaseCommand):
    help = "Create the demo InfiniBand fabric 'ib0' with the demo node pool on it (idempotent)."

    def handle(self, *args, **options):
        with acting_as(system_actor("seed_demo_fabric")), transaction.atomic():
            fabric = Fabric.objects.filter(name=DEMO["name"]).first()
            if fabric is None:
                pools = NodePool.objects.filter(name="demo-rack")
                fabric = services.create_fabric(DEMO, pools=list(pools))
                services.add_shared_port(fabric, STORAGE, "demo storage (Lustre OSS)")
        self.stdout.write(f"Fabric {fabric.name}: enrol its agent with a join token from /fabrics/{fabric.pk}/.")
