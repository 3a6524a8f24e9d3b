"""End to end in the kernel: load the compiled ruleset in a namespace, send real connections."""

import sys

import pytest

from netpolicy.compiler import nft
from netpolicy.compiler.model import (
    Action,
    Category,
    Direction,
    Group,
    Policy,
    Protocol,
    Rule,
    Scope,
    Service,
)
from tests.netpolicy.builders import Netns, make_site, make_tenant

LISTEN = """
import socket, sys, threading
def serve(port):
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("", port)); s.listen(16)
    while True:
        s.accept()[0].close()
for p in sys.argv[1:]:
    threading.Thread(target=serve, args=(int(p),), daemon=True).start()
print("ready", flush=True)
threading.Event().wait()
"""

PROBE = """
import errno, socket, sys
src, dst, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = socket.socket(); s.settimeout(5); s.bind((src, 0))
try:
    s.connect((dst, port)); print("open")
except TimeoutError:
    print("timeout")
except OSError as exc:
    print({errno.EHOSTUNREACH: "rejected", errno.ECONNREFUSED: "refused"}.get(exc.errno, exc))
"""

NODE_ADDRS = ("10.1.0.10/24", "10.1.0.11/24")
CLIENT_ADDRS = ("192.0.2.7/32", "10.1.0.99/32", "10.255.0.10/32")


def _wire(node, client):
    """A veth named like acme's tenant interface between the node and a client namespace."""
    iface = make_tenant("acme", 1).interface
    node.run("ip", "link", "add", iface, "type", "veth", "peer", "name", "cl0", "netns", client.name)
    for ns, dev, addrs in ((node, iface, NODE_ADDRS), (client, "cl0", CLIENT_ADDRS)):
        for addr in addrs:
            ns.run("ip", "addr", "add", addr, "dev", dev)
        ns.run("ip", "link", "set", "lo", "up")
        ns.run("ip", "link", "set", dev, "up")
    node.run("ip", "route", "add", "192.0.2.0/24", "dev", iface)
    node.run("ip", "route", "add", "10.255.0.0/24", "dev", iface)
    client.run("ip", "route", "add", "10.1.0.0/24", "dev", "cl0")


def _listen(ns, *ports):
    proc = ns.popen(sys.executable, "-c", LISTEN, *map(str, ports))
    assert proc.stdout.readline().strip() == "ready"
    return proc


@pytest.fixture
def lab(tmp_path):
    """Node and client namespaces with listeners, the default ruleset loaded on the node."""
    node, client = Netns("npnode"), Netns("npcli")
    procs = []
    try:
        _wire(node, client)
        procs += [_listen(node, 22, 8080), _listen(client, 2049, 8080)]
        site = make_site([make_tenant("acme", 1), make_tenant("beta", 2)])
        loaded = node.nft(nft.compile_ruleset(site), tmp_path)
        assert loaded.returncode == 0, loaded.stderr
        yield node, client, site
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
        node.close()
        client.close()


def probe(ns, src, dst, port):
    """Outcome of one TCP connection attempt: open, rejected, refused or timeout."""
    return ns.run(sys.executable, "-c", PROBE, src, dst, str(port)).stdout.strip()


def test_outside_users_reach_ssh_on_the_login_node_only(lab):
    node, client, _ = lab
    assert probe(client, "192.0.2.7", "10.1.0.10", 22) == "open"
    assert probe(client, "192.0.2.7", "10.1.0.10", 8080) == "rejected"
    assert probe(client, "192.0.2.7", "10.1.0.11", 22) == "rejected"


def test_tenant_nodes_reach_each_other_on_any_port(lab):
    _, client, _ = lab
    assert probe(client, "10.1.0.99", "10.1.0.11", 8080) == "open"


def test_tenant_nodes_reach_nfs_but_not_other_ports_outside(lab):
    node, _, _ = lab
    assert probe(node, "10.1.0.10", "10.255.0.10", 2049) == "open"
    assert probe(node, "10.1.0.10", "10.255.0.10", 8080) == "rejected"


def test_a_tenant_update_opens_a_port_without_reloading_the_table(lab, tmp_path):
    node, client, site = lab
    login = Group("login", Scope.TENANT, "acme", ("10.1.0.10/32", "fd00:1::10/128"), ("login",))
    http_alt = Service("http_alt", Protocol.TCP, ("8080",))
    rule = Rule("web_in", 10, Action.ALLOW, (), (login,), (http_alt,), Direction.IN)
    extra = Policy("acme_web", Scope.TENANT, Category.APPLICATION, 200, (rule,), "acme")
    acme = make_tenant("acme", 1, (extra,))
    new_site = make_site([acme, site.tenant("beta")])
    applied = node.nft(nft.compile_tenant_update(new_site, "acme"), tmp_path)
    assert applied.returncode == 0, applied.stderr
    assert probe(client, "192.0.2.7", "10.1.0.10", 8080) == "open"
    assert probe(client, "192.0.2.7", "10.1.0.11", 8080) == "rejected"
