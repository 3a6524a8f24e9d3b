"""A site with an InfiniBand fabric: two ESXi hosts with IB PFs on it, and helpers for the agent's channel."""

import pytest
from rest_framework.test import APIClient

from fabrics import services as fabric_services
from tenants import services
from tests.vsphere.sites import capacity_site, cluster_of

VF_GUIDS = "0x005056fffea00000"  # MACs 00:50:56:a0:00:00 on carry them (vsphere/plan/vf_mac.py)


@pytest.fixture
def reconcile_held(monkeypatch):
    """Approval queues nothing: these tests drive observed state themselves."""
    from tenants import realizers
    from tenants.choices import SiteKind

    monkeypatch.setattr(realizers.get(SiteKind.VSPHERE), "queue", lambda cluster_id: None)


class IbSite:
    """The vCenter's two hosts on fabric ib0, and an enrolled fabric agent."""

    def __init__(self, world):
        self.world = world
        self.vcenter, self.pfs = capacity_site()
        hosts = sorted({pf.host for pf in self.pfs}, key=lambda h: h.name)
        self.fabric = fabric_services.create_fabric(
            {"name": "ib0", "pkey_first": 0x10, "pkey_last": 0x40, "vf_guid_first": VF_GUIDS, "vf_guid_count": 4096},
            hosts=hosts,
        )
        token, raw = fabric_services.create_join_token(self.fabric)
        self.join_token = raw
        _, self.credential = fabric_services.join(raw)

    def approve(self, tenant, owner, **overrides):
        cluster = cluster_of(tenant, owner, submit=True, **overrides)
        return services.approve_cluster(cluster, self.world.admin)

    def agent(self, credential=None) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {credential or self.credential}")
        return client

    def desired(self) -> dict:
        self.fabric.refresh_from_db()
        return self.fabric.desired


@pytest.fixture
def site(world, reconcile_held):
    return IbSite(world)


def programmed(doc: dict, *, drop=(), extra=None) -> dict:
    """The report of a fabric that programmed `doc` exactly (but the ports in `drop`), as fabric_wire's shape."""
    ports = {}
    for part in doc["partitions"]:
        for guid in part["full"]:
            if guid not in drop:
                ports[guid] = [f"0x{int(part['pkey'], 16) | 0x8000:04x}", "0x7fff"]
    for guid in doc["shared"]["full"]:
        ports[guid] = ["0xffff"]
    ports.update(extra or {})
    return {"schema": 1, "reads": [1], "generation": doc["generation"], "applied_generation": doc["generation"],
            "errors": [], "ports": ports,
            "sm": {"kind": "opensm", "version": "3.3.23", "m_key": True, "m_key_protect": 2, "sm_key": True,
                   "foreign_sms": []}}  # fmt: skip
