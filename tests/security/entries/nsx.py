"""Abuse entries of the nsx app: NSX Managers are site inventory; their objects' realization is read-only."""

from tests.security.framework import Abuse, Ref

NOT_ADMINS = ("owner_a", "member_a", "owner_b", "anonymous", "node_b")
TZ = "/infra/sites/default/enforcement-points/default/transport-zones/tz-overlay"
MANAGER = {
    "vcenter": Ref("vcenter"), "url": "https://nsx.example.org", "username": "admin", "password": "p",
    "verify_tls": True, "ca_bundle": "", "transport_zone_path": TZ, "tier0_path": "", "domain": "default",
}  # fmt: skip


def add_objects(world) -> None:
    """The NSX Manager of the world's vCenter (nothing listens at its URL)."""
    from nsx.models import NsxManager
    from tests.vsphere.sites import make_vcenter

    world.vcenter_b = make_vcenter("sec-b")
    world.nsx_manager = NsxManager.objects.create(url="https://127.0.0.1:9", username="u", password="p",
                                                  transport_zone_path=TZ)  # fmt: skip
    type(world.vcenter).objects.filter(pk=world.vcenter.pk).update(nsx=world.nsx_manager)


# fmt: off
ENTRIES = [
    Abuse("A tenant registers an NSX Manager for the site", "nsxmanager-list", "post", body=MANAGER,
          attackers=NOT_ADMINS, refused=frozenset({403})),
    Abuse("A tenant points the site's NSX Manager at their own host", "nsxmanager-detail", "patch",
          target="nsx_manager", body={"url": "https://evil.example.org"}, attackers=NOT_ADMINS,
          refused=frozenset({403})),
    Abuse("A tenant replaces the site's NSX Manager", "nsxmanager-detail", "put", target="nsx_manager",
          body=MANAGER, attackers=NOT_ADMINS, refused=frozenset({403})),
    Abuse("A tenant forgets the site's NSX Manager", "nsxmanager-detail", "delete", target="nsx_manager",
          attackers=NOT_ADMINS, refused=frozenset({403})),
    Abuse("A tenant starts reachability checks against the NSX Manager", "nsxmanager-check", "post",
          target="nsx_manager", attackers=NOT_ADMINS, refused=frozenset({403})),
    Abuse("A tenant queues NSX reachability checks from the vCenter's page", "nsx:manager-check", "post",
          target="nsx_manager", attackers=NOT_ADMINS, refused=frozenset({404})),
    Abuse("A site admin's NSX CA bundle outside the secrets directory is refused", "nsxmanager-detail", "patch",
          target="nsx_manager", body={"ca_bundle": "/etc/ssl/private/key.pem"}, attackers=("admin",),
          refused=frozenset({400})),
    Abuse("A policy path with a shell or path trick is refused even for site admins", "nsxmanager-detail", "patch",
          target="nsx_manager", body={"transport_zone_path": "/infra/../x;reboot"}, attackers=("admin",),
          refused=frozenset({400})),
    Abuse("A plain-HTTP NSX URL (credentials in clear) is refused even for site admins", "nsxmanager-detail",
          "patch", target="nsx_manager", body={"url": "http://nsx.example.org"}, attackers=("admin",),
          refused=frozenset({400})),
    Abuse("A site admin moves an NSX Manager to another vCenter", "nsxmanager-detail", "patch",
          target="nsx_manager", body={"vcenter": Ref("vcenter_b")}, attackers=("admin",),
          refused=frozenset({400})),
]
# fmt: on

PENDING: dict = {}

EXEMPT: dict = {}
