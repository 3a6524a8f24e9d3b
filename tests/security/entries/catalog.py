"""Abuse entries of the catalog: only site admins publish; an item shown to tenant A is a 404 for tenant B;
researchers request only within an item's bounds and only in their own tenants."""

import datetime

from tests.security.framework import Abuse, Ref

NOT_ADMINS = ("owner_a", "member_a", "owner_b", "member_b", "anonymous", "node_b")
LEASE = (datetime.date.today() + datetime.timedelta(days=20)).isoformat()
RULES = {
    "workload_class": {"value": "parallel-distributed"},
    "worker_count": {"value": 2, "editable": True, "min": 1, "max": 4},
    "vcpus_per_node": {"value": 4},
    "memory_gb_per_node": {"value": 8},
    "interconnect": {"value": "none", "editable": True, "choices": ["none", "pvrdma"]},
}
ITEM = {
    "slug": "sec-new", "name": "Sec item", "summary": "s", "description": "d", "rules": RULES, "max_lease_days": 30,
    "visibility": "tenants", "tenants": [Ref("tenant_a"), Ref("tenant_b")], "active": True,
}  # fmt: skip
CHANGES = {k: v for k, v in ITEM.items() if k != "slug"} | {"rules": RULES | {"vcpus_per_node": {"value": 768}}}


def _request(tenant="tenant_a", values=None) -> dict:
    body = {"tenant": Ref(tenant), "name": "sec-from-item", "lease_end": LEASE, "justification": "j", "submit": False}
    return body | {"values": values or {}}


def add_objects(world) -> None:
    """An item every tenant sees, and one shown to tenant A only."""
    from catalog import services

    world.item_all = services.create_item(world.admin, {"slug": "sec-all", "name": "All", "rules": RULES})
    world.item_a = services.create_item(world.admin, {
        "slug": "sec-a", "name": "A only", "rules": RULES, "visibility": "tenants", "tenants": [world.tenant_a],
    })  # fmt: skip


# fmt: off
ENTRIES = [
    Abuse("A tenant publishes a catalog item", "catalogitem-list", "post", body=ITEM, attackers=NOT_ADMINS,
          refused=frozenset({403}), control="admin"),
    Abuse("A tenant rewrites an item's presets and who sees it", "catalogitem-detail", "patch", target="item_all",
          body=CHANGES, attackers=NOT_ADMINS, refused=frozenset({403}), control="admin"),
    Abuse("Nobody renames an item's slug (links and requests name it)", "catalogitem-detail", "patch",
          target="item_all", body={"slug": "renamed"}, attackers=(*NOT_ADMINS, "admin"), refused=frozenset({403}),
          by_role={"admin": frozenset({400})}),
    Abuse("A tenant replaces an item", "catalogitem-detail", "put", target="item_all",
          body=CHANGES | {"slug": "sec-all"},
          attackers=NOT_ADMINS, refused=frozenset({403}), control="admin"),
    Abuse("Tenant B requests from an item shown to tenant A only", "catalogitem-request", "post", target="item_a",
          body=_request("tenant_b"), attackers=("owner_b", "member_b", "anonymous", "node_b"),
          refused=frozenset({404})),
    Abuse("Tenant B requests in tenant A's name", "catalogitem-request", "post", target="item_all",
          body=_request("tenant_a"), attackers=("owner_b", "member_b", "anonymous", "node_b"),
          refused=frozenset({400}), control="member_a"),
    Abuse("A researcher changes what the item fixes", "catalogitem-request", "post", target="item_all",
          body=_request(values={"vcpus_per_node": 768}), attackers=("member_a", "owner_a"), refused=frozenset({400})),
    Abuse("A researcher goes beyond the item's bounds", "catalogitem-request", "post", target="item_all",
          body=_request(values={"worker_count": 1000, "interconnect": "sriov-ib"}),
          attackers=("member_a", "owner_a", "admin"), refused=frozenset({400})),
    Abuse("A researcher names a cluster from an item outside the DNS-label grammar", "catalogitem-request", "post",
          target="item_all", body=_request() | {"name": "x\nlink del lo"}, attackers=("member_a", "owner_a", "admin"),
          refused=frozenset({400})),
    Abuse("A researcher smuggles a field the item does not know", "catalogitem-request", "post", target="item_all",
          body=_request(values={"tenant": 1, "requested_by": 1}), attackers=("member_a",), refused=frozenset({400})),
    # ------------------------------------------------------------ pages
    Abuse("A tenant publishes an item on the page", "catalog:item-create", "post",
          body={"slug": "sec-page", "name": "Page", "visibility": "all", "active": "on",
                "workload_class__value": "ml", "worker_count__value": 1, "vcpus_per_node__value": 2,
                "memory_gb_per_node__value": 4, "interconnect__value": "none", "network_mode__value": "vlan",
                "data_path__value": "standard", "nic_type__value": "vmxnet3", "gpu_mode__value": "none",
                "gpus_per_worker__value": 0},
          attackers=("owner_a", "member_a", "anonymous"), refused=frozenset({404}), control="admin"),
    Abuse("A tenant edits an item on the page", "catalog:item-edit", "post", target="item_all",
          body={"slug": "sec-all", "name": "Taken", "visibility": "all", "active": "on",
                "workload_class__value": "ml", "worker_count__value": 1, "vcpus_per_node__value": 2,
                "memory_gb_per_node__value": 4, "interconnect__value": "none", "network_mode__value": "vlan",
                "data_path__value": "standard", "nic_type__value": "vmxnet3", "gpu_mode__value": "none",
                "gpus_per_worker__value": 0},
          attackers=("owner_a", "member_a", "anonymous"), refused=frozenset({404}), control="admin"),
    Abuse("Tenant B requests from tenant A's item on the page", "catalog:item-detail", "post", target="item_a",
          body={"tenant": Ref("tenant_b"), "name": "sec-page", "lease_end": LEASE, "justification": "j",
                "worker_count": 2, "interconnect": "none"},
          attackers=("owner_b", "member_b", "anonymous"), refused=frozenset({404})),
]
# fmt: on

PENDING: dict = {}

EXEMPT: dict = {}
