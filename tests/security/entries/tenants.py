"""Abuse entries of the tenants app: tenants, memberships, quotas, cluster requests, and their pages."""

import datetime

from tests.security.framework import Abuse, Ref

NOT_ADMINS = ("owner_a", "member_a", "owner_b", "anonymous", "node_b")
QUOTA = {
    "max_nodes": 999,
    "max_vcpus": 9999,
    "max_memory_gb": 99999,
    "max_vfs": 99,
    "max_segments": 99,
    "max_pending_segments": 99,
    "max_gpus": 99,
}
LEASE = (datetime.date.today() + datetime.timedelta(days=30)).isoformat()
PAST_MAXIMUM = (datetime.date.today() + datetime.timedelta(days=3000)).isoformat()


def add_objects(world) -> None:
    """Tenant A's cluster requests in each state an action starts from, and A's member's membership."""
    from tenants import services
    from tenants.models import Quota
    from tests.conftest import service_data

    world.membership_member_a = world.tenant_a.memberships.get(user=world.member_a)
    # Room for every request below plus one more: the controls submit and create clusters too.
    Quota.objects.filter(tenant=world.tenant_a).update(max_nodes=32, max_segments=8)
    world.quota_a = Quota.objects.get(tenant=world.tenant_a)
    world.cluster_draft = services.create_cluster(world.tenant_a, world.member_a, service_data(name="draft"))
    world.cluster_submitted = services.create_cluster(
        world.tenant_a, world.member_a, service_data(name="submitted"), submit=True
    )
    world.cluster_endorsed = services.create_cluster(
        world.tenant_a, world.owner_a, service_data(name="endorsed"), submit=True
    )
    world.cluster_extending = services.create_cluster(
        world.tenant_a, world.member_a, service_data(name="extending"), submit=True
    )
    services.change_lease(world.cluster_extending, world.member_a, datetime.date.fromisoformat(PAST_MAXIMUM), "runs")
    live = services.create_cluster(world.tenant_a, world.owner_a, service_data(name="live", worker_count=1),
                                   submit=True)  # fmt: skip
    world.cluster_live = services.approve_cluster(live, world.admin)


def _cluster(**extra) -> dict:
    body = {
        "tenant": Ref("tenant_a"),
        "name": "sec-mpi",
        "workload_class": "parallel-distributed",
        "worker_count": 2,
        "vcpus_per_node": 8,
        "memory_gb_per_node": 32,
        "login_node": True,
        "interconnect": "none",
        "network_mode": "vlan",
        "data_path": "standard",
        "nic_type": "vmxnet3",
        "gpu_mode": "none",
        "gpus_per_worker": 0,
        "vgpu_profile": "",
        "lease_end": LEASE,
        "justification": "runs",
        "submit": False,
    }
    return body | extra


def _draft_changes() -> dict:
    body = _cluster(name="draft", worker_count=3)
    del body["tenant"]
    return body


# fmt: off
ENTRIES = [
    Abuse("Anyone but a site admin creates a tenant", "tenant-list", "post",
          body={"slug": "mine", "name": "Mine", "description": "x"}, attackers=NOT_ADMINS,
          refused=frozenset({403}), control="admin"),
    Abuse("Tenant B's owner adds himself to tenant A", "membership-list", "post",
          body={"tenant": Ref("tenant_a"), "username": Ref("owner_b", "username"), "role": "owner"},
          attackers=("owner_b", "anonymous", "node_b"), refused=frozenset({404}), control="admin"),
    Abuse("A member makes himself an owner", "membership-list", "post",
          body={"tenant": Ref("tenant_a"), "username": Ref("member_a", "username"), "role": "owner"},
          attackers=("member_a",), refused=frozenset({400, 403})),
    Abuse("A member adds someone to his tenant", "membership-list", "post",
          body={"tenant": Ref("tenant_a"), "username": Ref("member_b", "username"), "role": "member"},
          attackers=("member_a",), refused=frozenset({403}), control="admin"),
    Abuse("Tenant A's owner adds tenant B's member, who cannot leave, to limit B's overlays on shared pools",
          "membership-list", "post",
          body={"tenant": Ref("tenant_a"), "username": Ref("member_b", "username"), "role": "member"},
          attackers=("owner_a",), refused=frozenset({400}), control="admin"),
    Abuse("A member or tenant B removes a member of tenant A", "membership-detail", "delete",
          target="membership_member_a", attackers=("member_a", "owner_b", "anonymous", "node_b"),
          refused=frozenset({403}), by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("A tenant raises its own quota", "quota-detail", "patch", target="quota_a",
          body=QUOTA,
          attackers=NOT_ADMINS, refused=frozenset({403, 404}), control="admin"),
    Abuse("A tenant replaces its own quota", "quota-detail", "put", target="quota_a",
          body=QUOTA,
          attackers=NOT_ADMINS, refused=frozenset({403, 404}), control="admin"),
    Abuse("Tenant B's owner requests a cluster in tenant A", "virtualcluster-list", "post", body=_cluster(),
          attackers=("owner_b", "anonymous", "node_b"), refused=frozenset({400}), control="member_a"),
    Abuse("A cluster request in the past lease is refused for everyone", "virtualcluster-list", "post",
          body=_cluster(lease_end="2000-01-01"), attackers=("member_a", "admin"), refused=frozenset({400})),
    Abuse("A vGPU profile that is a shell command is refused", "virtualcluster-list", "post",
          body=_cluster(gpu_mode="vgpu", gpus_per_worker=1, vgpu_profile="$(reboot)"), attackers=("member_a", "admin"),
          refused=frozenset({400})),
    Abuse("GPUs without a GPU mode are refused", "virtualcluster-list", "post",
          body=_cluster(gpus_per_worker=8), attackers=("member_a",), refused=frozenset({400})),
    Abuse("DPU offload or ENS on an emulated adapter (a data path it cannot use) is refused", "virtualcluster-list",
          "post", body=_cluster(data_path="dpu", nic_type="e1000e"), attackers=("member_a", "admin"),
          refused=frozenset({400})),
    Abuse("A made-up interconnect is refused, never stored to be ignored", "virtualcluster-list", "post",
          body=_cluster(interconnect="nvlink"), attackers=("member_a", "admin"), refused=frozenset({400})),
    Abuse("Tenant B's owner edits tenant A's draft", "virtualcluster-detail", "patch", target="cluster_draft",
          body=_draft_changes(), attackers=("owner_b", "member_b", "anonymous", "node_b"),
          refused=frozenset({404}), control="member_a"),
    Abuse("Tenant B's owner replaces tenant A's draft", "virtualcluster-detail", "put", target="cluster_draft",
          body=_draft_changes(), attackers=("owner_b", "anonymous", "node_b"), refused=frozenset({404}),
          control="owner_a"),
    Abuse("Tenant B submits tenant A's draft", "virtualcluster-submit", "post", target="cluster_draft",
          attackers=("owner_b", "anonymous", "node_b"), refused=frozenset({404}), control="member_a"),
    Abuse("A member endorses his own request", "virtualcluster-endorse", "post", target="cluster_submitted",
          attackers=("member_a", "owner_b", "anonymous", "node_b"), refused=frozenset({403}),
          by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("An owner approves his own tenant's request", "virtualcluster-approve", "post",
          target="cluster_endorsed", attackers=("owner_a", "member_a", "owner_b", "anonymous", "node_b"),
          refused=frozenset({403}), by_role={"owner_b": frozenset({404})}),
    Abuse("A tenant approves its own request on a vCenter it names", "virtualcluster-approve", "post",
          target="cluster_endorsed", body={"site": Ref("vcenter"), "site_kind": "vsphere"},
          attackers=("owner_a", "member_a", "owner_b", "anonymous", "node_b"), refused=frozenset({403}),
          by_role={"owner_b": frozenset({404})}),
    Abuse("A request asks for an adapter type outside the list", "virtualcluster-list", "post",
          body=_cluster(nic_type="VirtualE1000; rm -rf /"), attackers=("member_a", "admin"),
          refused=frozenset({400})),
    Abuse("A member or tenant B rejects a request", "virtualcluster-reject", "post", target="cluster_submitted",
          body={"reason": "no"}, attackers=("member_a", "owner_b", "anonymous", "node_b"),
          refused=frozenset({403}), by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("Tenant B withdraws tenant A's request", "virtualcluster-decommission", "post",
          target="cluster_submitted", attackers=("owner_b", "anonymous", "node_b"), refused=frozenset({404}),
          control="member_a"),
    Abuse("Tenant B extends tenant A's lease", "virtualcluster-extend-lease", "post", target="cluster_endorsed",
          body={"lease_end": "2099-01-01"}, attackers=("owner_b", "anonymous", "node_b"),
          refused=frozenset({404})),
    Abuse("Tenant B asks for a lease past the site's maximum on tenant A's cluster", "virtualcluster-extend-lease",
          "post", target="cluster_submitted", body={"lease_end": PAST_MAXIMUM, "justification": "mine now"},
          attackers=("owner_b", "anonymous", "node_b"), refused=frozenset({404}), control="member_a"),
    Abuse("A lease past the site's maximum without a justification is refused for everyone",
          "virtualcluster-extend-lease", "post", target="cluster_submitted", body={"lease_end": PAST_MAXIMUM},
          attackers=("member_a", "owner_a", "admin"), refused=frozenset({400})),
    Abuse("A member approves the extension he asked for", "virtualcluster-approve-extension", "post",
          target="cluster_extending", attackers=("member_a", "owner_b", "anonymous", "node_b"),
          refused=frozenset({403}), by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("A member or tenant B rejects an extension", "virtualcluster-reject-extension", "post",
          target="cluster_extending", body={"reason": "no"}, attackers=("member_a", "owner_b", "anonymous", "node_b"),
          refused=frozenset({403}), by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("Tenant B resizes tenant A's cluster", "virtualcluster-resize", "post", target="cluster_endorsed",
          body={"worker_count": 64, "interconnect": "sriov-ib"}, attackers=("owner_b", "anonymous", "node_b"),
          refused=frozenset({404})),
    # ------------------------------------------------------------ pages
    Abuse("Tenant B's owner requests a cluster in tenant A on the page", "frontend:cluster-create", "post",
          body=_cluster(submit="1"), attackers=("owner_b", "anonymous"),
          refused=frozenset({200}), control="member_a"),
    Abuse("A member endorses his own request on the page", "frontend:cluster-action", "post",
          target="cluster_submitted", kwargs={"verb": "endorse"},
          attackers=("member_a", "owner_b", "anonymous"), refused=frozenset({302}),
          by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("A member approves the extension he asked for on the page", "frontend:cluster-action", "post",
          target="cluster_extending", kwargs={"verb": "approve-extension"},
          attackers=("member_a", "owner_b", "anonymous"), refused=frozenset({302}),
          by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("A member or tenant B resizes tenant A's live cluster on the page (confirmed)", "frontend:cluster-action",
          "post", target="cluster_live", kwargs={"verb": "resize"},
          body={"worker_count": 2, "interconnect": "sriov-ib", "confirm": "yes"},
          attackers=("member_a", "owner_b", "anonymous"), refused=frozenset({302}),
          by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("Tenant B asks for a lease past the maximum on the page", "frontend:cluster-action", "post",
          target="cluster_submitted", kwargs={"verb": "extend-lease"},
          body={"lease_end": PAST_MAXIMUM, "justification": "mine"}, attackers=("owner_b", "anonymous"),
          refused=frozenset({404}), control="member_a"),
    Abuse("A tenant creates a tenant on the page", "frontend:tenant-list", "post",
          body={"slug": "mine", "name": "Mine"}, attackers=("owner_a", "member_a", "anonymous"),
          refused=frozenset({404}), control="admin"),
    Abuse("A tenant raises its quota on the tenant page", "frontend:tenant-detail", "post", target="tenant_a",
          body={"quota": "1", "max_nodes": 999, "max_vcpus": 9999, "max_memory_gb": 99999, "max_vfs": 99,
                "max_segments": 99, "max_pending_segments": 99, "max_gpus": 99},
          attackers=("owner_a", "member_a", "anonymous"), refused=frozenset({404}), control="admin"),
    Abuse("A tenant removes a membership on the page", "frontend:membership-remove", "post",
          target="membership_member_a", attackers=("owner_a", "member_a", "owner_b", "anonymous"),
          refused=frozenset({404}), control="admin"),
]
# fmt: on

PENDING: dict = {}

EXEMPT: dict = {}
