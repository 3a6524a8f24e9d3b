"""The optimized nft compiler writes byte for byte the ruleset its previous version wrote.

The oracle is a frozen copy of the compiler before its speed-up (tests/netpolicy/nft_previous.py).
Sites are drawn to reach every branch of the fast path: policies of every category interleaved with
the site's, groups with several networks per family, only IPv6, none, or IPv4-mapped IPv6, every
protocol, disabled and logged rules, and equal groups held by distinct objects.
"""

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from netpolicy.compiler import defaults, nft
from netpolicy.compiler.model import (
    Action,
    Category,
    Direction,
    Group,
    Policy,
    PolicyError,
    Protocol,
    Rule,
    Scope,
    Service,
    Site,
    Tenant,
)
from tests.netpolicy import nft_previous
from tests.netpolicy.builders import custom_policy, make_site, make_tenant

NETWORKS = ("10.0.0.0/24", "10.0.1.0/24", "10.0.0.128/25", "192.0.2.7/32", "fd00::/64", "fd00:0:0:1::/64",
            "2001:db8::/48", "::ffff:10.1.2.0/120", "::/0", "0.0.0.0/0", "fe80::1/128")  # fmt: skip
SERVICES = (
    Service("ssh", Protocol.TCP, ("22",)),
    Service("web", Protocol.TCP, ("8080", "8443-8444", "8081")),
    Service("dns_udp", Protocol.UDP, ("53",)),
    Service("alludp", Protocol.UDP),
    Service("icmp", Protocol.ICMP),
    Service("anything", Protocol.ANY),
)
GROUP_NAMES = ("all", "login", "worker", "partner", "nfs_servers")
SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])  # fmt: skip


def assert_identical(site: Site) -> None:
    """Both compilers on separate copies of the site, so that no memo of one feeds the other."""
    before = copy.deepcopy(site)
    assert nft.compile_ruleset(site) == nft_previous.compile_ruleset(before)
    for tenant in site.tenants:  # the stored parts re-assemble to the same text
        old = nft_previous.tenant_part(before, before.tenant(tenant.name))
        assert nft.tenant_part(site, tenant).to_dict() == old.to_dict()


@st.composite
def tenants(draw, index: int):
    """A tenant with one to three policies of any category and sequence, over drawn groups."""
    name = f"t{index}"
    groups = {n: Group(n, Scope.TENANT, name, tuple(draw(st.lists(st.sampled_from(NETWORKS), max_size=3))))
              for n in draw(st.lists(st.sampled_from(GROUP_NAMES), min_size=1, max_size=4, unique=True))}  # fmt: skip
    twins = {n: copy.copy(g) for n, g in groups.items()}  # equal groups held by other objects
    pick = st.sampled_from(sorted(groups)).flatmap(lambda n: st.sampled_from([groups[n], twins[n]]))
    policies = []
    for p in range(draw(st.integers(1, 3))):
        rules = tuple(Rule(f"r{i}", i, draw(st.sampled_from(list(Action))),
                           tuple(draw(st.lists(pick, max_size=2, unique_by=lambda g: g.name))),
                           tuple(draw(st.lists(pick, max_size=2, unique_by=lambda g: g.name))),
                           tuple(draw(st.lists(st.sampled_from(SERVICES), max_size=2, unique_by=lambda s: s.name))),
                           draw(st.sampled_from(list(Direction))), draw(st.booleans()), draw(st.booleans()))
                      for i in range(draw(st.integers(0, 5))))  # fmt: skip
        policies.append(Policy(f"{name}_p{p}", Scope.TENANT, draw(st.sampled_from(list(Category))),
                               draw(st.sampled_from([0, 5, 10, 11, 100, 2_000_000])), rules, name))  # fmt: skip
    return Tenant(name, f"vrf{index}", (), tuple(policies))


@st.composite
def sites(draw):
    """Default site policies, maybe an emergency one, and up to four tenants."""
    nfs, dns = defaults.site_groups(draw(st.lists(st.sampled_from(NETWORKS), max_size=2)), ["10.255.0.53/32"])
    extra = ()
    if draw(st.booleans()):
        extra = (Policy("site_first", Scope.SITE, Category.EMERGENCY, 5,
                        (Rule("block", 1, Action.DROP, (), (dns,), (SERVICES[0],), Direction.IN),)),)  # fmt: skip
    chosen = [draw(tenants(i)) for i in range(draw(st.integers(0, 4)))]
    return Site(defaults.site_policies() + extra, tuple(chosen), defaults.SEEDED_SERVICES, (nfs, dns))


def test_drawn_sites_compile_to_the_previous_compilers_text():
    @SETTINGS
    @given(st.data())
    def check(data):
        try:
            site = data.draw(sites())
        except PolicyError:
            return  # e.g. a name drawn twice with two definitions: refused before any compile
        assert_identical(site)

    check()


def test_a_site_of_many_tenants_with_custom_policies_compiles_to_the_previous_compilers_text():
    tenants = [make_tenant(f"t{i}", i, (custom_policy(f"t{i}", i),) if i % 3 else ()) for i in range(1, 120)]
    assert_identical(make_site(tenants))


def test_compiling_a_site_twice_gives_the_same_text_as_the_previous_compiler_once():
    site = make_site([make_tenant("acme", 1, (custom_policy("acme", 1),)), make_tenant("beta", 2)])
    first = nft.compile_ruleset(site)
    assert nft.compile_ruleset(site) == first == nft_previous.compile_ruleset(copy.deepcopy(site))
