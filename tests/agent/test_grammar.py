"""The grammar of everything that reaches ip/bridge/nft, as properties over generated input."""

import ipaddress
import re

import pytest
from enclave_agent import grammar, nftables
from enclave_agent.plan import Capabilities, KernelState, plan
from enclave_agent.state import StateError, parse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from topo import PORTAL_RULESET, desired

VRF = Capabilities(vrf=True, vxlan=True, nftables=True)
PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HOSTILE = st.text(st.characters(codec="utf-8"), max_size=40) | st.sampled_from([
    "eth0\nlink del lo", "eth0 down", "eth0#x", 'eth"0', "eth0\\", "eth0;x", "-eth0", "dev", "help",
    "a" * 16, "", " eth0", "eth0\t", "eth0\r", "ｅｔｈ０", "eth0\x00", "eth0/1", "eth0:1",
])  # fmt: skip
ADDRESSES = st.text(max_size=50) | st.sampled_from([
    "2001:db8::%a b\nzz/128", "fe80::1%lo/128", "10.0.0.0/8\n", "10.0.0.5/24 ", "10.0.0.5/024",
    "010.0.0.5/24", "10.0.0.5/255.255.255.0", "::ffff:10.0.0.5/120", "2001:DB8::5/64",
    "10.0.0.5/24#", "10.0.0.5/24\ndel", "10.0.0.5", "10.0.0.5/33", "0.0.0.0/0", "224.0.0.1/4",
])  # fmt: skip


def makeargs(line: str) -> list[str]:
    """Split one batch line the way iproute2's getcmdline() + makeargs() do (comments, quotes)."""
    line = line.split("#", 1)[0]
    args, i = [], 0
    while i < len(line):
        while i < len(line) and line[i] in " \t\r\n":
            i += 1
        if i >= len(line):
            break
        if line[i] in "'\"":
            end = line.index(line[i], i + 1)
            args.append(line[i + 1 : end])
            i = end + 1
        else:
            j = i
            while j < len(line) and line[j] not in " \t\r\n":
                j += 1
            args.append(line[i:j])
            i = j
    return args


@PROPERTY
@given(HOSTILE)
def test_an_accepted_interface_name_is_one_plain_token_within_ifnamsiz(text):
    try:
        name = grammar.ifname(text)
    except grammar.GrammarError:
        return
    assert name == text and 1 <= len(name.encode()) <= grammar.IFNAMSIZ
    assert makeargs(f"link set {name} up") == ["link", "set", name, "up"]
    assert not re.search(r"[\s#'\"\\;/:]", name) and name.lower() not in grammar.RESERVED_NAMES


@PROPERTY
@given(ADDRESSES)
def test_an_accepted_address_is_canonical_and_one_token(text):
    for check in (grammar.interface_address, grammar.address, grammar.network, grammar.gateway):
        try:
            value = check(text)
        except grammar.GrammarError:
            continue
        assert value == text and "%" not in value and makeargs(f"addr add {value} dev x")[2] == value
        parsed = ipaddress.ip_interface(value) if "/" in value else ipaddress.ip_address(value)
        assert str(parsed) == value


@PROPERTY
@given(st.integers(min_value=-(2**40), max_value=2**40) | st.booleans() | st.text(max_size=5))
def test_uids_are_real_integers_and_never_root(value):
    try:
        uid = grammar.uid(value)
    except grammar.GrammarError:
        return
    assert type(uid) is int and 0 < uid < 2**32 - 1


@pytest.mark.parametrize("text", [
    "flush ruleset\n", 'table inet enclave {\n  include "/etc/shadow"\n}\n', "table inet other {\n}\n",
    "table inet enclave { } table inet filter { }\n", "delete table inet filter\n",
    'table inet enclave { chain c { comment "}" } }\nlist ruleset\n', "table inet enclave {\n",
    "table inet enclave { chain c { \x1b } }",
])  # fmt: skip
def test_a_portal_ruleset_may_not_leave_its_own_table_or_read_files(text):
    with pytest.raises(grammar.GrammarError):
        grammar.portal_ruleset(text)


def test_the_compilers_own_preamble_and_the_test_ruleset_pass():
    preamble = "table inet enclave {\n}\ndelete table inet enclave\n"
    preamble += "table inet enclave {\n\tset s { type ipv4_addr; }\n}\n"
    assert grammar.portal_ruleset(preamble) == preamble
    assert grammar.portal_ruleset(PORTAL_RULESET) == PORTAL_RULESET


# -- whole documents: generated, planned, tokenised like iproute2 does -----------------------

NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"
names = st.text(NAME_CHARS, min_size=1, max_size=15).filter(
    lambda n: n[0].isalnum() and n.lower() not in grammar.RESERVED_NAMES
)


@st.composite
def documents(draw):
    """A valid desired-state document with random names, ids and addresses."""
    ifnames = draw(st.lists(names, min_size=1, max_size=3, unique=True))
    hosts = draw(st.lists(st.integers(1, 2**24 - 2), min_size=len(ifnames), max_size=len(ifnames)))
    interfaces = [
        {
            "name": n,
            "address": f"{ipaddress.IPv4Address(0x0A000000 + h)}/{draw(st.integers(8, 30))}",
            "gateway": draw(st.none() | st.just("10.255.255.254")),
        }
        for n, h in zip(ifnames, hosts, strict=True)
    ]
    tids = draw(st.lists(st.integers(1, 2**22 - 3), min_size=1, max_size=4, unique=True))
    uids = draw(st.lists(st.integers(1, 2**32 - 2), min_size=len(tids), max_size=len(tids), unique=True))
    doc = desired("n1", 1, [])
    doc["node"]["interfaces"] = interfaces
    for tid, uid in zip(tids, uids, strict=True):
        entry = desired("n1", 1, [tid], uids={tid: [uid]})["tenants"][0]
        from enclave_agent.state import vxlan_name

        entry["vxlans"] = [
            {
                "device": vxlan_name(i["name"], tid),
                "underlay": i["name"],
                "dstport": 4789 + k,
                "address": i["address"],
                "group": "239.1.1.9",
            }
            for k, i in enumerate(interfaces)
        ]
        doc["tenants"].append(entry)
    return doc


def _intended(state) -> set[tuple[str, ...]]:
    """The argv of every ip/bridge command the document stands for (independent of plan.py)."""
    out = set()
    for t in state.tenants:
        out |= {
            ("link", "add", t.vrf, "group", "4242", "type", "vrf", "table", str(t.table)),
            ("link", "set", t.vrf, "up"),
            ("addr", "add", "127.0.0.1/8", "dev", t.vrf),
            ("addr", "add", "::1/128", "dev", t.vrf),
            ("addr", "add", t.cgnat, "dev", t.vrf),
            ("route", "replace", t.cgnat, "dev", t.vrf, "proto", "189"),
        }
        gw = next((i for i in state.node.interfaces if i.gateway), None)
        if gw:
            out.add(
                (
                    "route",
                    "replace",
                    "default",
                    "via",
                    gw.gateway,
                    "dev",
                    gw.name,
                    "src",
                    t.cgnat.split("/")[0],
                    "proto",
                    "189",
                    "table",
                    str(t.table),
                )
            )
        for vx in t.vxlans:
            out |= {("link", "add", vx.device, "group", "4242", "type", "vxlan", "id", str(t.vni), "dev",
                     vx.underlay, "dstport", str(vx.dstport), "ttl", "5", "group", vx.group),
                    ("link", "set", vx.device, "master", t.vrf), ("addr", "add", vx.address, "dev", vx.device),
                    ("link", "set", vx.device, "up")}  # fmt: skip
    return out


@PROPERTY
@given(documents())
def test_generated_documents_plan_lines_that_parse_as_exactly_the_intended_commands(doc):
    state = parse(doc)
    ops = plan(KernelState(sysctls={}), state, VRF, nftables.transaction(state)).ops
    lines = [line for op in ops for line in (*op.ip, *op.bridge, *op.finish)]
    parsed = [tuple(makeargs(line)) for line in lines]
    assert all("\n" not in line and "\r" not in line for line in lines)
    aliases = {p for p in parsed if p[:2] == ("link", "set") and p[3] == "alias"}
    assert all(len(p) == 5 and p[4].startswith("enclave:") for p in aliases)
    assert set(parsed) - aliases == _intended(state)


@PROPERTY
@given(documents(), st.sampled_from(["name", "address", "gateway"]), HOSTILE | ADDRESSES)
def test_a_document_with_any_invalid_interface_value_is_refused_whole(doc, key, value):
    iface = dict(doc["node"]["interfaces"][0])
    iface[key] = value
    try:
        grammar.interface(iface)
    except grammar.GrammarError:
        doc["node"]["interfaces"][0] = iface
        with pytest.raises(StateError, match="refused"):
            parse(doc)


@pytest.mark.skipif(__import__("os").geteuid() != 0, reason="nft -c needs root (in a throwaway netns)")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_the_agents_nftables_transaction_for_generated_documents_passes_real_nft_check(doc):
    import subprocess

    _, text = nftables.transaction(parse(doc))
    check = subprocess.run(["unshare", "-n", "nft", "-c", "-f", "-"], input=text, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
