"""Properties of every validator whose output reaches nft or NSX: what it accepts is safe to emit.

No accepted value carries a line break, a space, a quote or any other character that would end an nft
token or statement; derived names stay within nft's and NSX's limits; and every site built from accepted
values compiles to a ruleset the real `nft -c` accepts. Examples are bounded so each test takes seconds.
"""

import ipaddress
import json
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from core.addresses import AddressError, parse_address, parse_network
from netpolicy.compiler import defaults, nft, nsx
from netpolicy.compiler.model import (
    NAME_MAX,
    NAME_RE,
    Action,
    Category,
    Direction,
    Group,
    Policy,
    PolicyError,
    PortRange,
    Protocol,
    Rule,
    Scope,
    Service,
    Site,
    Tenant,
)
from netpolicy.ir import canonical_ports
from tests.netpolicy.builders import Netns

NFT_NAME_MAX = 255  # NFT_NAME_MAXLEN - 1 (sets, chains, tables)
NFT_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NSX_ID = re.compile(r"[A-Za-z0-9_-]{1,255}")
SAFE = re.compile(r"[0-9a-f.:/]+")
# Characters that end or change an nft token, a JSON string or a command line.
NASTY = " \t\n\r\x00\x0b\x0c\"'`;{}#$\\%,/-_.:|&<>*?~!@^()[]\u00a0\u2028\u0662٣Ａ"
FAST = settings(max_examples=300, deadline=None, derandomize=True, database=None)

texts = st.text(alphabet=st.sampled_from(NASTY + "abcdefxyz0123456789ABCDEF"), max_size=60)


def _network(draw_addr, plen) -> str:
    return str(ipaddress.ip_network((draw_addr, plen), strict=False))


networks = st.one_of(
    st.builds(_network, st.ip_addresses(v=4), st.integers(0, 32)),
    st.builds(_network, st.ip_addresses(v=6), st.integers(0, 128)),
)
# Accepted networks with noise around or inside them: the grammar must refuse every noisy variant.
noisy_networks = st.builds(lambda net, noise, at: net[:at] + noise + net[at:], networks, texts.filter(bool),
                           st.integers(0, 50))  # fmt: skip


@FAST
@given(st.one_of(texts, networks, noisy_networks))
def test_an_accepted_network_is_canonical_and_carries_nothing_but_address_characters(text):
    try:
        net = parse_network(text)
    except AddressError as exc:
        assert "\n" not in str(exc)  # the refusal quotes the value with repr, never raw
        return
    assert str(net) == text and SAFE.fullmatch(text) and len(text) <= 43


@FAST
@given(st.one_of(texts, st.ip_addresses().map(str), st.builds(lambda a, n: a + n, st.ip_addresses().map(str), texts)))
def test_an_accepted_address_is_canonical_and_unscoped(text):
    try:
        addr = parse_address(text)
    except AddressError:
        return
    assert str(addr) == text and SAFE.fullmatch(text) and "/" not in text


port_texts = st.one_of(
    texts,
    st.lists(st.integers(-5, 70000).map(str), min_size=1, max_size=4).map(",".join),
    st.lists(st.tuples(st.integers(0, 66000), st.integers(0, 66000)).map(lambda p: f"{p[0]}-{p[1]}"), max_size=3)
    .map(",".join),
)  # fmt: skip


@FAST
@given(port_texts)
def test_accepted_ports_are_ascii_ranges_in_1_to_65535(text):
    try:
        ports = canonical_ports(text)
    except PolicyError:
        return
    assert re.fullmatch(r"([0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*)?", ports)
    for part in filter(None, ports.split(",")):
        rng = PortRange.parse(part)
        assert 1 <= rng.start <= rng.end <= 65535


LOWER, ALNUM = "abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyz0123456789"
# Valid names by construction (at most NAME_MAX characters, no trailing underscore).
valid_names = st.builds(
    lambda first, rest: (first + "".join(("_" if u else "") + c for u, c in rest))[:40].rstrip("_"),
    st.sampled_from(LOWER),
    st.lists(st.tuples(st.booleans(), st.sampled_from(ALNUM)), max_size=30),
)
names = st.one_of(texts, valid_names)


@FAST
@given(valid_names)
def test_the_name_strategy_draws_only_valid_names(name):
    assert NAME_RE.match(name)


@FAST
@given(names)
def test_an_accepted_name_makes_nft_identifiers_and_nsx_ids_within_their_limits(name):
    if not NAME_RE.match(name) or len(name) > NAME_MAX:
        with pytest.raises(PolicyError):
            Group(name, Scope.SITE)
        return
    tenant = "t" + "9" * 18  # the longest tenant id a bigint primary key gives
    for derived in (nft.group_set(Group(name, Scope.TENANT, tenant), 6), nft.group_set(Group(name, Scope.SITE), 4),
                    nft.service_set(Service(name, Protocol.TCP)), nft.tenant_chain(tenant, "out"),
                    nft.policy_chain(Policy("p" + "9" * 18, Scope.SITE, Category.APPLICATION, 1), "in")):  # fmt: skip
        assert NFT_IDENTIFIER.fullmatch(derived) and len(derived) <= NFT_NAME_MAX
    for derived in (nsx.group_id(Group(name, Scope.TENANT, tenant)), nsx.service_path(Service(name, Protocol.UDP))):
        assert NSX_ID.fullmatch(derived.rsplit("/", 1)[-1])


@FAST
@given(texts)
def test_an_accepted_nsx_domain_is_an_nsx_id(domain):
    if nsx.DOMAIN_RE.fullmatch(domain):
        assert NSX_ID.fullmatch(domain) and "/" not in domain


# ---------------------------------------------------------------- every compiled site passes nft -c


@st.composite
def sites(draw):
    """A site of one to three tenants whose names, ports and addresses all passed the validators."""
    service_names = draw(st.lists(valid_names, min_size=1, max_size=3, unique=True))
    services = []
    for name in service_names:
        proto = draw(st.sampled_from([Protocol.TCP, Protocol.UDP, Protocol.ICMP, Protocol.ANY]))
        ports = draw(port_texts) if proto in (Protocol.TCP, Protocol.UDP) else ""
        try:
            ports = canonical_ports(ports)
        except PolicyError:
            ports = ""
        services.append(Service(name, proto, tuple(filter(None, ports.split(",")))))
    tenants = []
    for index in range(draw(st.integers(1, 3))):
        tname = f"t{index + 1}"
        groups = [
            Group(n, Scope.TENANT, tname, tuple(draw(st.lists(networks, max_size=3))))
            for n in draw(st.lists(valid_names, min_size=1, max_size=3, unique=True))
        ]
        rules = tuple(Rule(f"r{i}", i * 10, draw(st.sampled_from(list(Action))),
                           tuple(draw(st.lists(st.sampled_from(groups), max_size=2, unique_by=lambda g: g.name))),
                           tuple(draw(st.lists(st.sampled_from(groups), max_size=2, unique_by=lambda g: g.name))),
                           tuple(draw(st.lists(st.sampled_from(services), max_size=2, unique_by=lambda s: s.name))),
                           draw(st.sampled_from(list(Direction))), draw(st.booleans()))
                      for i in range(draw(st.integers(0, 4))))  # fmt: skip
        policy = Policy(f"p{index + 1}", Scope.TENANT, Category.APPLICATION, 100, rules, tname)
        tenants.append(Tenant(tname, f"vrf{index + 1}", tuple(draw(st.lists(networks, max_size=2))), (policy,)))
    nfs, dns = defaults.site_groups(draw(st.lists(networks, max_size=2)), draw(st.lists(networks, max_size=2)))
    return Site(defaults.site_policies(), tuple(tenants), defaults.SEEDED_SERVICES + tuple(services), (nfs, dns))


@pytest.fixture(scope="module")
def netns():
    ns = Netns("npprop")
    yield ns
    ns.close()


def test_every_site_built_from_accepted_values_passes_nft_check_and_exports_to_nsx(netns, tmp_path_factory):
    folder = tmp_path_factory.mktemp("nft")

    @settings(max_examples=25, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])  # fmt: skip
    @given(sites())
    def check(site):
        try:
            text = nft.compile_ruleset(site)
        except PolicyError:
            assume(False)  # e.g. two services named alike: refused, never emitted
        assert "\r" not in text and "\x00" not in text
        result = netns.nft(text, folder, check_only=True)
        assert result.returncode == 0, result.stderr + text
        infra = json.loads(nsx.export_infra_json(site))
        assert "%" not in json.dumps(infra)

    check()
