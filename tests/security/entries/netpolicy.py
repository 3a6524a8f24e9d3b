"""Abuse entries of the netpolicy app: pools, segments, the firewall model, what-if, and its pages."""

from tests.security.framework import Abuse, Ref

OUTSIDERS = ("owner_b", "anonymous", "node_b")  # nobody of tenant A
NOT_OWNERS = ("member_a", "owner_b", "anonymous", "node_b")
NOT_ADMINS = ("owner_a", "member_a", "owner_b", "anonymous", "node_b")


def add_objects(world) -> None:
    """Pools (shared and reserved for B), a segment per tenant, and the default firewall objects."""
    from netpolicy import allocation, segments
    from netpolicy.models import FirewallPolicy, Group, Service

    admin = world.admin
    allocation.create_pool(admin, {"name": "sec-vlans", "kind": "vlan", "first": 200, "last": 299})
    world.pool_b_vlans = allocation.create_pool(
        admin, {"name": "sec-b-vlans", "kind": "vlan", "first": 300, "last": 309, "tenant": world.tenant_b}
    )
    allocation.create_pool(admin, {"name": "sec-vnis", "kind": "vni", "first": 5000, "last": 5999})
    world.pool_v4 = allocation.create_pool(
        admin, {"name": "sec-v4", "kind": "ipv4", "cidr": "10.96.0.0/16", "default_prefix_length": 24}
    )
    world.segment_a = segments.create_segment(world.tenant_a, world.member_a, {"name": "net-a", "kind": "vlan"})
    world.segment_b = segments.create_segment(world.tenant_b, world.admin, {"name": "net-b", "kind": "vlan"})
    world.group_a = Group.objects.get(tenant=world.tenant_a, name="all")
    world.group_b = Group.objects.get(tenant=world.tenant_b, name="all")
    world.group_a_partners = Group.objects.create(tenant=world.tenant_a, name="partners")  # addresses by hand
    world.site_nfs = Group.objects.get(tenant__isnull=True, name="nfs_servers")
    world.policy_a = FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation")
    world.site_deny = FirewallPolicy.objects.get(tenant__isnull=True, name="site_default_deny")
    world.rule_a = world.policy_a.rules.get(name="intra_tenant")
    world.site_rule = world.site_deny.rules.get()
    world.ssh = Service.objects.get(name="ssh")


SITE_SETTINGS = {
    "dns_servers": ["10.96.255.53"],
    "dns_domain": "hpc.example.edu",
    "ntp_servers": ["10.96.255.123"],
    "nfs_servers": ["10.96.254.0/28"],
    "address_cooldown_minutes": 30,
}


def _segment(**extra) -> dict:
    return {"tenant": Ref("tenant_a"), "name": "sec-new", "kind": "vlan", **extra}


def _rule(**extra) -> dict:
    body = {
        "policy": Ref("policy_a"),
        "name": "web",
        "sequence": 500,
        "sources": [Ref("group_a")],
        "destinations": [Ref("group_a")],
        "services": [Ref("ssh")],
        "action": "allow",
        "direction": "in",
        "logged": False,
        "enabled": True,
        "description": "web",
    }
    return body | extra


# fmt: off
ENTRIES = [
    # ------------------------------------------------------------ site settings (DNS, NTP, NFS servers)
    Abuse("A tenant points every VM's resolver and the nfs/dns groups at its own hosts", "site-settings", "patch",
          body=SITE_SETTINGS, attackers=NOT_ADMINS, refused=frozenset({403}), control="admin"),
    Abuse("A tenant replaces the site settings", "site-settings", "put", body=SITE_SETTINGS,
          attackers=NOT_ADMINS, refused=frozenset({403}), control="admin"),
    Abuse("A tenant changes the site's servers on the page", "netpolicy:site-settings", "post",
          body={"dns_servers": "10.96.255.53", "dns_domain": "hpc.example.edu", "ntp_servers": "",
                "nfs_servers": "10.96.254.0/28", "address_cooldown_minutes": 30},
          attackers=("owner_a", "member_a", "owner_b", "anonymous"), refused=frozenset({404}), control="admin"),
    Abuse("Resolver text that would reach guests' resolv.conf is refused even for site admins", "site-settings",
          "patch", body={"dns_servers": ["10.0.0.53\nnameserver 6.6.6.6"], "dns_domain": "x.edu\nsearch evil",
                         "ntp_servers": ["pool.ntp.org"], "nfs_servers": ["0.0.0.0/0"]},
          attackers=("admin",), refused=frozenset({400})),
    # ------------------------------------------------------------ pools (site inventory)
    Abuse("Anyone but a site admin defines a pool, even one reserved for their own tenant",
          "pool-list", "post",
          body={"name": "mine", "kind": "vlan", "first": 400, "last": 499, "cidr": None,
                "default_prefix_length": None, "routing_domain": "default", "tenant": Ref("tenant_a"),
                "description": "x"},
          attackers=NOT_ADMINS, refused=frozenset({403}), by_role={"owner_b": frozenset({400})},
          control="admin"),
    # ------------------------------------------------------------ segments
    Abuse("Tenant B's owner requests a segment in tenant A", "segment-list", "post",
          body=_segment(mtu=9000, data_path="standard", vsphere_cluster=""),
          attackers=OUTSIDERS, refused=frozenset({400}), control="member_a"),
    Abuse("A member takes a VLAN from the pool reserved for tenant B", "segment-list", "post",
          body=_segment(id_pool=Ref("pool_b_vlans"), vlan_id=300),
          attackers=("member_a", "owner_a"), refused=frozenset({400})),
    Abuse("A member takes the VLAN id tenant B's segment holds", "segment-list", "post",
          body=_segment(vlan_id=Ref("segment_b", "vlan_id")), attackers=("member_a",), refused=frozenset({400})),
    Abuse("A member asks for a subnet overlapping tenant B's segment", "segment-list", "post",
          body=_segment(subnet=Ref("segment_b", "subnet"), prefix_pool=Ref("pool_v4"), gateway=""),
          attackers=("member_a",), refused=frozenset({400})),
    Abuse("A member asks for an overlay whose VNI is outside every pool", "segment-list", "post",
          body=_segment(kind="overlay", vni=16_000_000, node_pool=None, prefix_length=24),
          attackers=("member_a",), refused=frozenset({400})),
    Abuse("A member or an owner approves their own segment request", "segment-approve", "post",
          target="segment_a", attackers=("member_a", "owner_a", "owner_b", "anonymous", "node_b"),
          refused=frozenset({403}), by_role={"owner_b": frozenset({404})}, control="admin"),
    Abuse("A member or an owner rejects a segment request", "segment-reject", "post",
          target="segment_a", attackers=("member_a", "owner_a", "owner_b", "anonymous", "node_b"),
          refused=frozenset({403}), by_role={"owner_b": frozenset({404})}, control="admin"),
    Abuse("A member or tenant B retires tenant A's segment", "segment-retire", "post", target="segment_a",
          attackers=NOT_OWNERS, refused=frozenset({403}), by_role={"owner_b": frozenset({404})},
          control="owner_a"),
    # ------------------------------------------------------------ services (site catalogue)
    Abuse("A tenant adds a service to the site catalogue", "service-list", "post",
          body={"name": "web", "protocol": "tcp", "ports": "8080", "description": "x"},
          attackers=NOT_ADMINS, refused=frozenset({403}), control="admin"),
    Abuse("A tenant owner changes a site service", "service-detail", "patch", target="ssh",
          body={"name": "ssh", "protocol": "tcp", "ports": "22,2222", "description": "x"},
          attackers=NOT_ADMINS, refused=frozenset({403}), control="admin"),
    Abuse("A tenant owner replaces a site service", "service-detail", "put", target="ssh",
          body={"name": "ssh", "protocol": "tcp", "ports": "22,2222", "description": "x"},
          attackers=NOT_ADMINS, refused=frozenset({403}), control="admin"),
    Abuse("A site admin changes a service's protocol to icmp keeping its ports (poisons every tenant)",
          "service-detail", "patch", target="ssh", body={"protocol": "icmp"}, attackers=("admin",),
          refused=frozenset({400})),
    Abuse("Anyone deletes a service (kept for the audit trail: the API has no DELETE)", "service-detail", "delete",
          target="ssh", attackers=(*NOT_ADMINS, "admin"), refused=frozenset({405})),
    Abuse("A member asks for a /1 to exhaust the address pool", "segment-list", "post",
          body=_segment(prefix_length=1), attackers=("member_a", "owner_a"), refused=frozenset({400})),
    Abuse("A site admin lets tenants take blocks larger than the pool's default", "pool-list", "post",
          body={"name": "v4b", "kind": "ipv4", "cidr": "10.99.0.0/16", "default_prefix_length": 24,
                "min_prefix_length": 25},
          attackers=("admin",), refused=frozenset({400})),
    Abuse("A site admin stores a pool supernet with a scope id and a newline", "pool-list", "post",
          body={"name": "v6", "kind": "ipv6", "cidr": "fd00:9::%a b\nzz/48"}, attackers=("admin",),
          refused=frozenset({400})),
    Abuse("A member asks for a scoped IPv6 subnet and gateway", "segment-list", "post",
          body=_segment(subnet="fd00:1::%eth0/64", gateway="fe80::1%eth0"), attackers=("member_a", "admin"),
          refused=frozenset({400})),
    Abuse("A site admin writes service ports with a newline", "service-detail", "patch", target="ssh",
          body={"ports": "22\n"}, attackers=("admin",), refused=frozenset({400})),
    # ------------------------------------------------------------ groups
    Abuse("An owner stores scoped and spaced addresses in a group (issue 8's reproduction)", "group-list",
          "post", body={"name": "odd", "tenant": Ref("tenant_a"),
                        "cidrs": ["2001:db8::%a b\nzz/128", "fe80::1%lo/128", "10.0.0.0/8\n"]},
          attackers=("owner_a", "admin"), refused=frozenset({400})),
    Abuse("A member or tenant B creates a group in tenant A", "group-list", "post",
          body={"name": "mine", "tenant": Ref("tenant_a"), "cidrs": ["192.0.2.0/24"], "segment": None,
                "all_segments": False, "role": "", "description": "x"},
          attackers=NOT_OWNERS, refused=frozenset({403}), by_role={"owner_b": frozenset({400})},
          control="owner_a"),
    Abuse("An owner creates a site-wide group", "group-list", "post",
          body={"name": "mine", "tenant": None, "cidrs": ["192.0.2.0/24"]},
          attackers=("owner_a", "member_a"), refused=frozenset({403}), control="admin"),
    Abuse("An owner puts tenant B's segment in a group of tenant A", "group-list", "post",
          body={"name": "theirs", "tenant": Ref("tenant_a"), "segment": Ref("segment_b")},
          attackers=("owner_a",), refused=frozenset({400})),
    Abuse("A member or tenant B changes tenant A's group", "group-detail", "patch", target="group_a",
          body={"description": "mine", "all_segments": True}, attackers=NOT_OWNERS, refused=frozenset({403}),
          by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("An owner puts tenant B's segment in tenant A's group", "group-detail", "patch", target="group_a",
          body={"segment": Ref("segment_b")}, attackers=("owner_a", "admin"), refused=frozenset({400})),
    Abuse("An owner sets the addresses of the site's NFS group (derived: even admins use the site settings)",
          "group-detail", "patch", target="site_nfs", body={"cidrs": ["10.96.0.0/24"]},
          attackers=("owner_a", "member_a", "owner_b", "admin"), refused=frozenset({403}),
          by_role={"admin": frozenset({400})}),
    Abuse("An owner types addresses into a group derived from intent (login VMs, segments)", "group-detail",
          "patch", target="group_a", body={"cidrs": ["192.0.2.0/24"]}, attackers=("owner_a", "admin"),
          refused=frozenset({400})),
    Abuse("A member or tenant B replaces tenant A's group", "group-detail", "put", target="group_a",
          body={"name": "all", "tenant": Ref("tenant_a"), "cidrs": [], "all_segments": True, "role": "",
                "description": "x"},
          attackers=NOT_OWNERS, refused=frozenset({403}), by_role={"owner_b": frozenset({404})},
          control="owner_a"),
    Abuse("Anyone deletes a group through the API", "group-detail", "delete", target="group_a",
          attackers=(*NOT_OWNERS, "owner_a", "admin"), refused=frozenset({400, 403}),
          by_role={"owner_b": frozenset({404})}),
    Abuse("A member or tenant B asks the site admins for a service in tenant A's name", "netpolicy:service-request",
          "post", body={"tenant": Ref("tenant_a"), "name": "jupyter_a", "protocol": "tcp", "ports": "8888",
                        "justification": "notebooks"},
          attackers=("member_a", "owner_b", "anonymous"), refused=frozenset({200, 403}),
          control="owner_a"),
    Abuse("An owner takes over a site group by moving it into his tenant", "group-detail", "patch",
          target="site_nfs", body={"tenant": Ref("tenant_a")}, attackers=("owner_a",),
          refused=frozenset({403})),
    Abuse("Moving a group between tenants, or to the site, is refused even to site admins", "group-detail",
          "patch", target="group_a", body={"tenant": None}, attackers=("owner_a", "admin"),
          refused=frozenset({400, 403})),
    # ------------------------------------------------------------ policies
    Abuse("An owner places a policy in a category reserved for the site", "firewallpolicy-list", "post",
          body={"name": "early", "tenant": Ref("tenant_a"), "category": "emergency", "sequence": 1,
                "description": "x"},
          attackers=("owner_a", "member_a"), refused=frozenset({403})),
    Abuse("A member or tenant B creates a policy in tenant A", "firewallpolicy-list", "post",
          body={"name": "mine", "tenant": Ref("tenant_a"), "category": "application", "sequence": 150},
          attackers=NOT_OWNERS, refused=frozenset({403}), by_role={"owner_b": frozenset({400})},
          control="owner_a"),
    Abuse("An owner creates a site-wide policy", "firewallpolicy-list", "post",
          body={"name": "mine", "tenant": None, "category": "application", "sequence": 150},
          attackers=("owner_a",), refused=frozenset({403}), control="admin"),
    Abuse("A member or tenant B changes tenant A's policy", "firewallpolicy-detail", "patch", target="policy_a",
          body={"description": "mine", "sequence": 90}, attackers=NOT_OWNERS, refused=frozenset({403}),
          by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("An owner edits the site's default deny", "firewallpolicy-detail", "patch", target="site_deny",
          body={"description": "mine", "category": "application"}, attackers=("owner_a", "member_a"),
          refused=frozenset({403}), control="admin"),
    Abuse("An owner takes over the site's default deny by moving it into his tenant", "firewallpolicy-detail",
          "patch", target="site_deny", body={"tenant": Ref("tenant_a")}, attackers=("owner_a", "member_a"),
          refused=frozenset({403})),
    Abuse("Moving a policy between tenants, or to the site, is refused even to site admins",
          "firewallpolicy-detail", "patch", target="policy_a", body={"tenant": None},
          attackers=("owner_a", "admin"), refused=frozenset({400, 403})),
    Abuse("A member or tenant B replaces tenant A's policy", "firewallpolicy-detail", "put", target="policy_a",
          body={"name": "isolation", "tenant": Ref("tenant_a"), "category": "application", "sequence": 100,
                "description": "x"},
          attackers=NOT_OWNERS, refused=frozenset({403}), by_role={"owner_b": frozenset({404})},
          control="owner_a"),
    Abuse("An owner deletes the site's default deny", "firewallpolicy-detail", "delete", target="site_deny",
          attackers=("owner_a", "member_a", "owner_b", "anonymous", "node_b"), refused=frozenset({403})),
    Abuse("A member or tenant B deletes tenant A's policy", "firewallpolicy-detail", "delete", target="policy_a",
          attackers=NOT_OWNERS, refused=frozenset({403}), by_role={"owner_b": frozenset({404})},
          control="owner_a"),
    # ------------------------------------------------------------ rules
    Abuse("A member or tenant B adds a rule to tenant A's policy", "firewallrule-list", "post", body=_rule(),
          attackers=NOT_OWNERS, refused=frozenset({403}), by_role={"owner_b": frozenset({400})},
          control="owner_a"),
    Abuse("An owner opens the tenant to ANY source", "firewallrule-list", "post", body=_rule(sources=[]),
          attackers=("owner_a",), refused=frozenset({400})),
    Abuse("An owner allows traffic from tenant B's group", "firewallrule-list", "post",
          body=_rule(sources=[Ref("group_b")]), attackers=("owner_a", "admin"), refused=frozenset({400})),
    Abuse("An owner adds a rule to the site's default deny", "firewallrule-list", "post",
          body=_rule(policy=Ref("site_deny"), sources=[], destinations=[], action="allow"),
          attackers=("owner_a",), refused=frozenset({403})),
    Abuse("An owner turns the site's final reject into an allow", "firewallrule-detail", "patch",
          target="site_rule", body={"action": "allow", "enabled": False}, attackers=("owner_a", "member_a"),
          refused=frozenset({403})),
    Abuse("A member or tenant B changes tenant A's rule", "firewallrule-detail", "patch", target="rule_a",
          body={"description": "mine", "logged": True}, attackers=NOT_OWNERS, refused=frozenset({403}),
          by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("An owner moves a rule into the site's default deny", "firewallrule-detail", "patch", target="rule_a",
          body={"policy": Ref("site_deny")}, attackers=("owner_a", "admin"), refused=frozenset({400})),
    Abuse("A member or tenant B replaces tenant A's rule", "firewallrule-detail", "put", target="rule_a",
          body=_rule(name="intra_tenant", sequence=10), attackers=NOT_OWNERS, refused=frozenset({403}),
          by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("An owner deletes the site's final reject", "firewallrule-detail", "delete", target="site_rule",
          attackers=("owner_a", "member_a", "owner_b"), refused=frozenset({403})),
    Abuse("A member or tenant B deletes tenant A's rule", "firewallrule-detail", "delete", target="rule_a",
          attackers=NOT_OWNERS, refused=frozenset({403}), by_role={"owner_b": frozenset({404})},
          control="owner_a"),
    # ------------------------------------------------------------ what-if
    Abuse("A site admin asks what-if about a scoped address", "what-if-list", "post",
          body={"source": "fe80::1%lo", "destination": "fe80::2", "protocol": "icmp"}, attackers=("admin",),
          refused=frozenset({400})),
    Abuse("Tenant B asks what-if about traffic into tenant A (an oracle for A's addresses and rules)",
          "what-if-list", "post", body={"source": "192.0.2.7", "destination": Ref("segment_a", "gateway"),
                                        "protocol": "tcp", "port": 22},
          attackers=("owner_b", "member_b"), refused=frozenset({403}), control="member_a", control_changes=False),
    Abuse("Someone without a session asks what-if", "what-if-list", "post",
          body={"source": "10.96.0.10", "destination": "10.96.1.10", "protocol": "tcp", "port": 22},
          attackers=("anonymous", "node_b"), refused=frozenset(), control="admin", control_changes=False),
    # ------------------------------------------------------------ pages
    Abuse("Tenant B's owner requests a segment in tenant A on the page", "netpolicy:segment-create", "post",
          body={"tenant": Ref("tenant_a"), "name": "sec-page", "kind": "vlan", "mtu": 9000,
                "data_path": "standard"},
          attackers=("owner_b", "anonymous"), refused=frozenset({200}), control="member_a"),
    Abuse("A member approves their own segment on the page", "netpolicy:segment-approve", "post",
          target="segment_a", attackers=("member_a", "owner_a", "owner_b", "anonymous"),
          refused=frozenset({302}), by_role={"owner_b": frozenset({404})}, control="admin"),
    Abuse("A member rejects a segment on the page", "netpolicy:segment-reject", "post", target="segment_a",
          body={"reason": "no"}, attackers=("member_a", "owner_a", "owner_b", "anonymous"),
          refused=frozenset({302}), by_role={"owner_b": frozenset({404})}, control="admin"),
    Abuse("A member or tenant B retires tenant A's segment on the page", "netpolicy:segment-retire", "post",
          target="segment_a", attackers=("member_a", "owner_b", "anonymous"), refused=frozenset({302}),
          by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("A tenant defines a pool on the page", "netpolicy:pool-create", "post",
          body={"name": "mine", "kind": "vlan", "first": 400, "last": 499, "routing_domain": "default"},
          attackers=("owner_a", "member_a", "anonymous"), refused=frozenset({404}), control="admin"),
    Abuse("A tenant adds a service on the page", "netpolicy:service-create", "post",
          body={"name": "web", "protocol": "tcp", "ports": "8080"},
          attackers=("owner_a", "member_a", "anonymous"), refused=frozenset({404}), control="admin"),
    Abuse("A member or tenant B adds a rule to tenant A's policy on the page", "netpolicy:rule-create", "post",
          target="policy_a",
          body={"name": "web", "sequence": 500, "sources": [Ref("group_a")], "destinations": [Ref("group_a")],
                "services": [Ref("ssh")], "action": "allow", "direction": "in"},
          attackers=("member_a", "owner_b", "anonymous"), refused=frozenset({403}),
          by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("An owner adds a rule to the site's default deny on the page", "netpolicy:rule-create", "post",
          target="site_deny", body={"name": "open", "sequence": 5, "action": "allow", "direction": "in-out"},
          attackers=("owner_a", "member_a"), refused=frozenset({403})),
    Abuse("An owner edits the site's final reject on the page", "netpolicy:rule-edit", "post",
          target="site_rule", body={"name": "reject_all", "sequence": 10, "action": "allow",
                                    "direction": "in-out"},
          attackers=("owner_a", "member_a", "owner_b", "anonymous"), refused=frozenset({403})),
    Abuse("A member or tenant B edits tenant A's rule on the page", "netpolicy:rule-edit", "post",
          target="rule_a", body={"name": "intra_tenant", "sequence": 10, "sources": [Ref("group_a")],
                                 "destinations": [Ref("group_a")], "action": "allow", "direction": "in-out",
                                 "description": "mine"},
          attackers=("member_a", "owner_b", "anonymous"), refused=frozenset({403}),
          by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("An owner reorders the site's rules on the page", "netpolicy:rule-move", "post", target="site_rule",
          body={"direction": "down"}, attackers=("owner_a", "member_a"), refused=frozenset({403})),
    Abuse("A member or tenant B reorders tenant A's rules on the page", "netpolicy:rule-move", "post",
          target="rule_a", body={"direction": "down"}, attackers=("member_a", "owner_b", "anonymous"),
          refused=frozenset({403}), by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("An owner sets the addresses of the site's NFS group on the page", "netpolicy:group-edit", "post",
          target="site_nfs", body={"cidrs": "10.96.0.0/24", "description": "x"},
          attackers=("owner_a", "member_a", "owner_b", "anonymous", "admin"), refused=frozenset({403}),
          by_role={"admin": frozenset({200})}),  # derived: the form answers with the refusal
    Abuse("A site admin sets a scoped address on the NFS group's page", "netpolicy:group-edit", "post",
          target="site_nfs", body={"cidrs": "fe80::1%lo/128"}, attackers=("admin",), refused=frozenset({200})),
    Abuse("A member or tenant B sets the addresses of tenant A's group on the page", "netpolicy:group-edit",
          "post", target="group_a_partners", body={"cidrs": "192.0.2.0/24"},
          attackers=("member_a", "owner_b", "anonymous"), refused=frozenset({403}),
          by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("A member or tenant B adds a group to tenant A on the page", "netpolicy:group-create", "post",
          target="tenant_a", body={"name": "mine", "cidrs": "192.0.2.0/24"},
          attackers=("member_a", "owner_b", "anonymous"), refused=frozenset({403}),
          by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("An owner types a scoped or malformed address into a new group on the page", "netpolicy:group-create",
          "post", target="tenant_a", body={"name": "odd", "cidrs": "fe80::1%lo/128\n10.0.0.1/8"},
          attackers=("owner_a",), refused=frozenset({200})),  # the form answers with the error
    Abuse("A member or tenant B deletes tenant A's group on the page", "netpolicy:group-delete", "post",
          target="group_a_partners", attackers=("member_a", "owner_b", "anonymous"), refused=frozenset({403}),
          by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("An owner deletes the site's NFS group on the page", "netpolicy:group-delete", "post",
          target="site_nfs", attackers=("owner_a", "member_a"), refused=frozenset({403})),
    Abuse("A member or tenant B deletes tenant A's rule on the page", "netpolicy:rule-delete", "post",
          target="rule_a", attackers=("member_a", "owner_b", "anonymous"), refused=frozenset({403}),
          by_role={"owner_b": frozenset({404})}, control="owner_a"),
    Abuse("An owner deletes the site's final reject on the page", "netpolicy:rule-delete", "post",
          target="site_rule", attackers=("owner_a", "member_a", "owner_b"), refused=frozenset({403})),
    Abuse("Tenant B asks what-if about traffic into tenant A on the page", "netpolicy:what-if", "post",
          body={"source": "192.0.2.7", "destination": Ref("segment_a", "gateway"), "protocol": "tcp", "port": "22"},
          attackers=("owner_b", "member_b"), refused=frozenset({403}), control="member_a", control_changes=False),
    Abuse("Someone without a session asks what-if on the page", "netpolicy:what-if", "post",
          body={"source": "10.96.0.10", "destination": "10.96.1.10", "protocol": "tcp", "port": "22"},
          attackers=("anonymous",), refused=frozenset(), control="admin", control_changes=False),
]
# fmt: on

PENDING: dict = {}

EXEMPT: dict = {}
