"""Seed the demo site's network intent: id and address pools, a node pool, one segment per tenant."""

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction

from agents import services as agent_services
from agents.models import NodePool
from audit.context import acting_as, system_actor
from netpolicy import allocation, segments, site
from netpolicy.models import Pool, Segment, SiteSettings
from tenants.models import Tenant
from users.models import PosixAccount

POOLS = [
    {"name": "site-vlans", "kind": "vlan", "first": 100, "last": 199},
    {"name": "site-vnis", "kind": "vni", "first": 10000, "last": 19999},
    {"name": "site-ipv4", "kind": "ipv4", "cidr": "10.128.0.0/14", "default_prefix_length": 24},
]
UIDS = {"alice": 20001, "arno": 20002, "grace": 20101, "gus": 20102}
# The demo site's shared servers, outside every pool: the default policy's NFS and DNS groups hold them.
SITE_SETTINGS = {"dns_servers": ["10.132.0.53"], "dns_domain": "hpc.example.edu", "ntp_servers": ["10.132.0.123"],
                 "nfs_servers": ["10.132.1.0/28"]}  # fmt: skip


class Command(BaseCommand):
    help = "Create the demo pools, node pool 'demo-rack' and an overlay segment per demo tenant (idempotent)."

    def handle(self, *args, **options):
        admin = get_user_model().objects.get(username="admin")
        with acting_as(system_actor("seed_network_demo")), transaction.atomic():
            for data in POOLS:
                if not Pool.objects.filter(name=data["name"]).exists():
                    allocation.create_pool(admin, dict(data))
            node_pool = NodePool.objects.filter(name="demo-rack").first()
            if node_pool is None:
                node_pool = agent_services.create_pool("demo-rack", "Demo bare-metal nodes (network namespaces)")
                agent_services.add_subnet(node_pool, "10.99.0.0/24", 4789)
            for tenant in Tenant.objects.filter(slug__in=["astro", "genomics"]):
                if not Segment.objects.filter(tenant=tenant, name="hpc-net").exists():
                    data = {"name": "hpc-net", "kind": "overlay", "node_pool": node_pool}
                    segments.create_segment(tenant, admin, data)
            if not SiteSettings.objects.exists():
                site.update_settings(admin, SITE_SETTINGS)
            for username, uid in UIDS.items():
                user = get_user_model().objects.filter(username=username).first()
                if user and not PosixAccount.objects.filter(user=user).exists():
                    PosixAccount.objects.create(user=user, uid=uid)
        call_command("ensure_default_policies")
        self.stdout.write("Network demo: pools site-vlans/site-vnis/site-ipv4, node pool demo-rack, segments hpc-net")
