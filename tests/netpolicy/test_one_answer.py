"""One answer everywhere: what-if, the node's nftables in the kernel and the vSphere filter agree on every packet.

The same IR feeds both compilers, so a VM at an address and a Linux node at an address get the verdict
what-if names. The node side is the real kernel (the ruleset loaded in a namespace, real connections);
the VM side is the compiled switch ruleset evaluated packet by packet.
"""

import ipaddress

import pytest

from netpolicy.compiler import vds
from netpolicy.compiler.analysis import what_if
from netpolicy.compiler.model import Action
from tests.netpolicy.test_netpolicy_kernel import lab, probe  # noqa: F401 (fixture)

TCP = 6
# (source, destination, port): outside to the login node, to another node, inside the tenant, from NFS
PACKETS = [
    ("192.0.2.7", "10.1.0.10", 22),
    ("192.0.2.7", "10.1.0.10", 8080),
    ("192.0.2.7", "10.1.0.11", 22),
    ("10.1.0.99", "10.1.0.11", 8080),
    ("10.1.0.99", "10.1.0.10", 22),
    ("10.255.0.10", "10.1.0.10", 22),
    ("10.255.0.10", "10.1.0.11", 8080),
]
ACME = ipaddress.ip_network("10.1.0.0/24")


def vm_verdict(rules, src, dst, port) -> bool:
    """Whether VMs at these addresses would exchange the packet: the sender's port, then the receiver's."""
    ports = [(vds.OUTGOING, dst)] + ([(vds.INCOMING, src)] if ipaddress.ip_address(src) in ACME else [])
    for direction, _vm in ports:
        rule = vds.decide(rules, src, dst, TCP, port, direction)
        if rule is not None and rule.action != "accept":
            return False
    return True


@pytest.mark.parametrize("packet", PACKETS, ids=[f"{s}->{d}:{p}" for s, d, p in PACKETS])
def test_what_if_the_kernel_and_the_switch_filter_give_one_answer(lab, packet):  # noqa: F811
    _node, client, site = lab
    src, dst, port = packet
    decision = what_if(site, src, dst, "tcp", port)
    node_open = probe(client, src, dst, port) == "open"
    rules = vds.compile_tenant(site, "acme")
    assert (decision.action is Action.ALLOW) == node_open == vm_verdict(rules, src, dst, port), (
        f"what-if says {decision.action} by {decision.rule}; node {'open' if node_open else 'closed'}"
    )
