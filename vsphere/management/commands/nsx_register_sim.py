"""Register the local NSX stand-in (tools/nsxsim) as the NSX Manager of the demo site's vCenter."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from audit.context import acting_as, system_actor
from netpolicy.models import Pool
from nsx import services
from nsx.models import NsxManager
from vsphere.models import VCenter
from vsphere.reconcile.intent import vcenter_config
from vsphere.vim.driver import Driver

TZ = "/infra/sites/default/enforcement-points/default/transport-zones/tz-overlay"


class Command(BaseCommand):
    help = "Prepare the demo vCenter's switch for NSX and register the NSX stand-in from its ready file."

    def add_arguments(self, parser):
        parser.add_argument("ready_file", help="ready.json the stand-in wrote in its --workdir")
        parser.add_argument("--vcenter", default="demo-sim")

    def handle(self, ready_file, vcenter, **options):
        info = json.loads(Path(ready_file).read_text())
        site = VCenter.objects.filter(name=vcenter).first()
        if site is None:
            raise CommandError(f"No vCenter named {vcenter}: register the simulator first.")
        hosts = list(site.hosts.values_list("name", flat=True))
        with Driver(vcenter_config(site)) as drv:  # the site prepares the switch NSX puts segments on
            drv.switches.ensure(
                site.datacenter, site.dvs_name, f"enclave:vcenter:{site.pk}:dvs", hosts, site.uplink_pnic
            )
        data = {"url": info["url"], "username": info["user"], "password": info["password"],
                "ca_bundle": str(Path(ready_file).parent / "ca.pem"), "transport_zone_path": TZ,
                "tier0_path": "/infra/tier-0s/t0-site"}  # fmt: skip
        with acting_as(system_actor("nsx_register_sim")):
            Pool.objects.get_or_create(name="nsx-geneve", kind="vni", defaults={"first": 80000, "last": 80999})
            manager = NsxManager.objects.filter(vcenter=site).first()
            if manager is None:
                services.create_manager({"vcenter": site, **data})
            else:
                services.update_manager(manager, data)
        self.stdout.write(f"{vcenter}: NSX stand-in at {info['url']} registered (overlay clusters offered)")
