"""Abuse entries of the agents app: node inventory (site admins), enrolment, and the node channel."""

from tests.security.framework import Abuse, Ref

NOT_ADMINS = ("owner_a", "member_a", "owner_b", "anonymous", "node_b")
IFACES = [{"name": "em1", "address": "10.97.0.5/24"}]


def add_objects(world) -> None:
    """A node pool with two enrolled nodes (A and B) and their credentials, and a spent join token."""
    from agents import services

    world.node_pool = services.create_pool("sec-rack")
    services.add_subnet(world.node_pool, "10.97.0.0/24", 4790)
    for name in ("node_a", "node_b"):
        token, raw = services.create_join_token(world.node_pool)
        node, credential = services.join(raw, name.replace("_", "-"), {"vrf": True}, IFACES)
        setattr(world, name, node)
        setattr(world, f"{name}_credential", credential)
        setattr(world, f"{name}_join_token", raw)


REPORT = {
    "generation": 1,
    "tenants": {},
    "node_errors": [],
    "capabilities": {"vrf": True},
    "full": True,
    "ops": 0,
    "processes": 0,
    "seconds": 0.1,
}

# fmt: off
ENTRIES = [
    Abuse("A tenant creates a node pool", "nodepool-list", "post",
          body={"name": "mine", "description": "x", "multicast_group": "239.1.1.9"}, attackers=NOT_ADMINS,
          refused=frozenset({403}), control="admin"),
    Abuse("A tenant adds an underlay subnet to a node pool", "poolsubnet-list", "post",
          body={"pool": Ref("node_pool"), "cidr": "10.98.0.0/24", "dstport": 4791}, attackers=NOT_ADMINS,
          refused=frozenset({403}), control="admin"),
    Abuse("A tenant changes a node's interfaces", "node-detail", "patch", target="node_a",
          body={"address": "10.97.0.66", "interfaces": [{"name": "em2", "address": "10.97.0.66/24"}]},
          attackers=NOT_ADMINS, refused=frozenset({403}), control="admin"),
    Abuse("A tenant replaces a node", "node-detail", "put", target="node_a",
          body={"address": "10.97.0.66", "interfaces": [{"name": "em2", "address": "10.97.0.66/24"}]},
          attackers=NOT_ADMINS, refused=frozenset({403}), control="admin"),
    Abuse("A tenant mints a join token", "jointoken-list", "post",
          body={"pool": Ref("node_pool"), "node_name": "node-a", "hours": 24}, attackers=NOT_ADMINS,
          refused=frozenset({403}), control="admin"),
    Abuse("A spent join token enrols (or re-enrols) a node", "agent-join", "post",
          body={"token": Ref("node_a_join_token", None), "hostname": "node-a", "capabilities": {},
                "interfaces": IFACES},
          attackers=("anonymous", "node_b", "owner_a"), refused=frozenset({404})),
    Abuse("Node B reports observed state as node A", "agent-observed-state", "post", body=REPORT,
          kwargs={"node": Ref("node_a", "name")}, attackers=("node_b",), refused=frozenset({404}),
          control="node_a"),
    Abuse("A user session reports observed state for a node", "agent-observed-state", "post", body=REPORT,
          kwargs={"node": Ref("node_a", "name")}, attackers=("anonymous", "admin", "owner_a"),
          refused=frozenset({401, 403})),
    Abuse("Node B renews node A's credential", "agent-credential", "post",
          kwargs={"node": Ref("node_a", "name")}, attackers=("node_b",), refused=frozenset({404}), control="node_a"),
    Abuse("A user session renews a node's credential", "agent-credential", "post",
          kwargs={"node": Ref("node_a", "name")}, attackers=("anonymous", "admin", "owner_a"),
          refused=frozenset({401, 403})),
    Abuse("A tenant revokes a node's credential", "node-revoke-credential", "post", target="node_a",
          attackers=NOT_ADMINS, refused=frozenset({403}), control="admin"),
    Abuse("A tenant revokes a node's credential on the node page", "agents:node-revoke-credential", "post",
          target="node_a", attackers=("owner_a", "member_a", "owner_b", "anonymous", "node_b"),
          refused=frozenset({404}), control="admin"),
    Abuse("An admin smuggles an ip command into a node's interface name", "node-detail", "patch",
          target="node_a", body={"interfaces": [{"name": "em1\nlink del lo", "address": "10.97.0.5/24"}]},
          attackers=("admin",), refused=frozenset({400})),
    Abuse("An admin gives a node a scoped, padded address", "node-detail", "patch", target="node_a",
          body={"address": "fe80::1%lo", "interfaces": [{"name": "em1", "address": "10.97.0.05/24"}]},
          attackers=("admin",), refused=frozenset({400})),
    Abuse("A joining node smuggles an ip command into its interfaces", "agent-join", "post",
          body={"token": Ref("node_a_join_token", None), "hostname": "node-x", "capabilities": {},
                "interfaces": [{"name": "em1", "address": "10.97.0.9/24 dev lo"}]},
          attackers=("anonymous",), refused=frozenset({400})),
    Abuse("A node smuggles partitions.conf text or the zero GUID into its InfiniBand ports", "agent-observed-state",
          "post", kwargs={"node": Ref("node_b", "name")},
          body=REPORT | {"ib_ports": [{"device": "mlx5_0", "port": 1, "guid": "0x0000000000000000", "netdev": "ib0"},
                                      {"device": "mlx5_0", "port": 2, "guid": "0x1,0x2 full", "netdev": "ib0"}]},
          attackers=("node_b",), refused=frozenset({400})),
    Abuse("A node claims schema versions no agent reads (zero, repeated, a string) to pick its pool's schema",
          "agent-observed-state", "post", kwargs={"node": Ref("node_b", "name")},
          body=REPORT | {"reads": [0, 2, 2, "3"]}, attackers=("node_b",), refused=frozenset({400})),
    Abuse("A joining node claims a hundred schema versions", "agent-join", "post",
          body={"token": Ref("node_a_join_token", None), "hostname": "node-x", "capabilities": {},
                "interfaces": IFACES, "reads": list(range(1, 101))},
          attackers=("anonymous",), refused=frozenset({400})),
    Abuse("A tenant mints a join token on the nodes page", "agents:join-token-create", "post",
          target="node_pool", body={"node_name": "node-a"}, attackers=("owner_a", "member_a", "anonymous"),
          refused=frozenset({404}), control="admin"),
]
# fmt: on

PENDING: dict = {}

EXEMPT: dict = {}
