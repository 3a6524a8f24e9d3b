"""Register the local simulator (scripts/vcsim.sh start -ready-file ...) as the demo site's vCenter."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand
from django.db import transaction

from audit.context import acting_as, system_actor
from audit.services import record, snapshot
from vsphere.models import VCenter
from vsphere.reconcile.discovery import discover


class Command(BaseCommand):
    help = "Register (or update) the vCenter simulator from its ready file and run discovery."

    def add_arguments(self, parser):
        parser.add_argument("ready_file", help="JSON the simulator wrote with -ready-file")
        parser.add_argument("--name", default="demo-sim")

    def handle(self, ready_file, name, **options):
        info = json.loads(Path(ready_file).read_text())
        host, port = info["host"].rsplit(":", 1)
        defaults = {
            "host": host, "port": int(port), "username": info["user"], "password": info["password"],
            "ca_bundle": info.get("ca_file", ""), "datacenter": "DC0", "compute_cluster": "DC0_C0",
            "template": "hpc-template",
        }  # fmt: skip
        with acting_as(system_actor("vsphere_register_sim")):
            with transaction.atomic():
                vcenter, created = VCenter.objects.update_or_create(name=name, defaults=defaults)
                record("vcenter.create" if created else "vcenter.update", vcenter, after=snapshot(vcenter))
            summary = discover(vcenter)
        self.stdout.write(f"{name}: {len(summary['hosts'])} hosts discovered at {info['sdk']}")
