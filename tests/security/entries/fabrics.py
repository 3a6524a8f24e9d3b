"""Abuse entries of the fabrics app: fabric inventory (site admins), and the fabric agent's channel."""

from tests.security.framework import Abuse, Ref

NOT_ADMINS = ("owner_a", "member_a", "owner_b", "anonymous", "node_b")
AGENT_DOOR = frozenset({401, 403, 404})  # no fabric credential: refused before anything is read
FABRIC = {"name": "ib-mine", "kind": "opensm", "description": "x", "pkey_first": 0x100, "pkey_last": 0x1FF,
          "reserved_pkeys": [0x101], "cooldown_minutes": 5, "vf_guid_first": "0x005056fffef00000",
          "vf_guid_count": 16, "hosts": [], "pools": []}  # fmt: skip
REPORT = {"schema": 1, "reads": [1], "generation": 1, "applied_generation": 1, "errors": [],
          "ports": {"0x0002c90300000001": ["0xffff"]}, "sm": {"kind": "opensm"}}  # fmt: skip


def add_objects(world) -> None:
    """Fabric sec-ib with a shared port and an unused join token (plaintext kept for the attacks)."""
    from fabrics import services

    world.fabric = services.create_fabric({"name": "sec-ib"})
    world.shared_port = services.add_shared_port(world.fabric, "0x0002c90300000001", "storage")
    _, world.fabric_join_token = services.create_join_token(world.fabric)


# fmt: off
ENTRIES = [
    Abuse("A tenant declares a fabric", "fabric-list", "post", body=FABRIC, attackers=NOT_ADMINS,
          refused=frozenset({403}), control="admin"),
    Abuse("A tenant changes a fabric's key range and VF GUIDs", "fabric-detail", "patch", target="fabric",
          body={k: v for k, v in FABRIC.items() if k != "name"}, attackers=NOT_ADMINS, refused=frozenset({403}),
          control="admin"),
    Abuse("A tenant replaces a fabric", "fabric-detail", "put", target="fabric", body=FABRIC | {"name": "sec-ib"},
          attackers=NOT_ADMINS, refused=frozenset({403}), control="admin"),
    Abuse("An admin gives a fabric the default partition or a 16-bit key", "fabric-detail", "patch",
          target="fabric", body={"pkey_first": 0x7FFF, "pkey_last": 0x8012, "reserved_pkeys": [0x8000]},
          attackers=("admin",), refused=frozenset({400})),
    Abuse("An admin smuggles partitions.conf text into a VF GUID", "fabric-detail", "patch", target="fabric",
          body={"vf_guid_first": "0x1;\nall=0x7fff,", "vf_guid_count": 4}, attackers=("admin",),
          refused=frozenset({400})),
    Abuse("A tenant declares a storage port shared with every tenant", "sharedport-list", "post",
          body={"fabric": Ref("fabric"), "guid": "0x0002c90300000002", "description": "mine"},
          attackers=NOT_ADMINS, refused=frozenset({403}), control="admin"),
    Abuse("An admin smuggles partitions.conf text into a shared port", "sharedport-list", "post",
          body={"fabric": Ref("fabric"), "guid": "0x0002c90300000002, 0x0", "description": "x"},
          attackers=("admin",), refused=frozenset({400})),
    Abuse("A tenant removes a shared storage port", "sharedport-detail", "delete", target="shared_port",
          attackers=NOT_ADMINS, refused=frozenset({403}), control="admin"),
    Abuse("A tenant mints a fabric join token", "fabricjointoken-list", "post",
          body={"fabric": Ref("fabric"), "hours": 24}, attackers=NOT_ADMINS, refused=frozenset({403}),
          control="admin"),
    Abuse("A tenant mints a fabric join token on the fabric page", "fabrics:join-token-create", "post",
          target="fabric", attackers=("owner_a", "member_a", "owner_b", "anonymous"), refused=frozenset({404}),
          control="admin"),
    Abuse("A guessed token enrols a fabric agent", "agent-fabric-join", "post",
          body={"token": "encfj_guessed", "hostname": "sm-01"}, attackers=("anonymous", "node_b", "owner_a"),
          refused=frozenset({404})),
    Abuse("A user session or a node credential reports a fabric's tables", "agent-fabric-report", "post",
          body=REPORT, kwargs={"fabric": Ref("fabric", "name")}, attackers=("anonymous", "admin", "owner_a", "node_b"),
          refused=AGENT_DOOR),
    Abuse("A user session or a node credential renews a fabric agent's credential", "agent-fabric-credential",
          "post", kwargs={"fabric": Ref("fabric", "name")}, attackers=("anonymous", "admin", "owner_a", "node_b"),
          refused=AGENT_DOOR),
]
# fmt: on

PENDING: dict = {}

EXEMPT: dict = {}
