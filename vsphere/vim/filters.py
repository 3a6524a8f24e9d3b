"""A port group's traffic filter both ways: Enclave's compiled rules (netpolicy.compiler.vds) as vSphere's, and back."""

from __future__ import annotations

import ipaddress

from pyVmomi import vim

from netpolicy.compiler.vds import VdsRule

FILTER_AGENT = "dvfilter-generic-vmware"  # the agent vSphere's traffic filtering and marking uses


def _address(network: str):
    net = ipaddress.ip_network(network)
    if net.num_addresses == 1:
        return vim.SingleIp(address=str(net.network_address))
    return vim.IpRange(addressPrefix=str(net.network_address), prefixLength=net.prefixlen)


def traffic_rule(rule):
    """One DvsTrafficRule with one IP qualifier (single ports only: what traffic filters accept)."""
    qualifier = vim.dvs.TrafficRule.IpQualifier()
    if rule.protocol is not None:
        qualifier.protocol = vim.IntExpression(value=rule.protocol)
    if rule.source is not None:
        qualifier.sourceAddress = _address(rule.source)
    if rule.destination is not None:
        qualifier.destinationAddress = _address(rule.destination)
    if rule.source_port is not None:
        qualifier.sourceIpPort = vim.dvs.TrafficRule.SingleIpPort(portNumber=rule.source_port)
    if rule.destination_port is not None:
        qualifier.destinationIpPort = vim.dvs.TrafficRule.SingleIpPort(portNumber=rule.destination_port)
    action = vim.dvs.TrafficRule.AcceptAction() if rule.action == "accept" else vim.dvs.TrafficRule.DropAction()
    return vim.dvs.TrafficRule(
        description=rule.description, sequence=rule.sequence, qualifier=[qualifier], action=action,
        direction=rule.direction,
    )  # fmt: skip


def filter_policy(rules):
    """The port group's filter policy: one enabled traffic ruleset, not inherited from the switch."""
    ruleset = vim.dvs.TrafficRuleset(enabled=True, rules=[traffic_rule(r) for r in rules])
    config = vim.dvs.DistributedVirtualPort.TrafficFilterConfig(
        inherited=False, agentName=FILTER_AGENT, trafficRuleset=ruleset
    )
    return vim.dvs.DistributedVirtualPort.FilterPolicy(inherited=False, filterConfig=[config])


def _network(address) -> str | None:
    if address is None:
        return None
    if isinstance(address, vim.IpRange):
        return str(ipaddress.ip_network(f"{address.addressPrefix}/{address.prefixLength}", strict=False))
    return str(ipaddress.ip_network(address.address))


def _port(port) -> int | None:
    if port is None:
        return None
    return port.portNumber if isinstance(port, vim.dvs.TrafficRule.SingleIpPort) else -1  # a range: never ours


def parse_rule(rule):
    """A DvsTrafficRule read back as Enclave's VdsRule (anything Enclave never writes cannot compare equal)."""
    qualifiers = [q for q in rule.qualifier or [] if isinstance(q, vim.dvs.TrafficRule.IpQualifier)]
    if len(qualifiers) != len(rule.qualifier or []) or len(qualifiers) > 1:
        return VdsRule(rule.sequence or 0, rule.description or "", "foreign", rule.direction or "")
    q = qualifiers[0] if qualifiers else vim.dvs.TrafficRule.IpQualifier()
    action = {vim.dvs.TrafficRule.AcceptAction: "accept", vim.dvs.TrafficRule.DropAction: "drop"}.get(
        type(rule.action), type(rule.action).__name__
    )
    return VdsRule(
        rule.sequence or 0, rule.description or "", action, rule.direction or "",
        q.protocol.value if q.protocol is not None else None, _network(q.sourceAddress),
        _network(q.destinationAddress), _port(q.sourceIpPort), _port(q.destinationIpPort),
    )  # fmt: skip


def parse_filter(config) -> tuple | None:
    """The enabled traffic ruleset of a port group's config, or None when it has none."""
    policy = getattr(getattr(config, "defaultPortConfig", None), "filterPolicy", None)
    for filter_config in getattr(policy, "filterConfig", None) or []:
        ruleset = getattr(filter_config, "trafficRuleset", None)
        if ruleset is not None and ruleset.enabled:
            return tuple(sorted(parse_rule(r) for r in ruleset.rules or []))
    return None
