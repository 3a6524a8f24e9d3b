"""The NSX Policy API hierarchical export: structure, field values, determinism."""

import json
import random

from netpolicy.compiler import nsx
from netpolicy.compiler.model import Site


def _children(node, resource_type):
    return [c for c in node["children"] if c["resource_type"] == resource_type]


def _domain(body):
    [child] = _children(body, "ChildDomain")
    return child["Domain"]


def _policies(body):
    return {c["SecurityPolicy"]["id"]: c["SecurityPolicy"] for c in _children(_domain(body), "ChildSecurityPolicy")}


def test_the_body_nests_infra_domain_policies_and_rules(custom_site):
    body = nsx.export_infra(custom_site)
    assert body["resource_type"] == "Infra"
    domain = _domain(body)
    assert (domain["resource_type"], domain["id"]) == ("Domain", "default")
    rule = _children(_policies(body)["acme_isolation"], "ChildRule")[0]["Rule"]
    assert rule["resource_type"] == "Rule"


def test_policies_carry_nsx_categories_and_sequence_numbers(custom_site):
    policies = _policies(nsx.export_infra(custom_site))
    assert policies["site_base"]["category"] == "Infrastructure"
    assert policies["acme_custom"]["category"] == "Environment"
    assert policies["site_default_deny"]["category"] == "Application"
    assert policies["site_default_deny"]["sequence_number"] == 1_000_000


def test_the_ssh_rule_maps_to_nsx_fields(default_site):
    policy = _policies(nsx.export_infra(default_site))["acme_isolation"]
    rules = {c["Rule"]["id"]: c["Rule"] for c in policy["children"]}
    ssh = rules["ssh_to_login"]
    assert ssh["source_groups"] == ["ANY"]
    assert ssh["destination_groups"] == ["/infra/domains/default/groups/tenant-acme-login"]
    assert ssh["services"] == ["/infra/services/enclave-ssh"]
    assert (ssh["action"], ssh["direction"], ssh["sequence_number"]) == ("ALLOW", "IN", 20)
    assert (ssh["logged"], ssh["disabled"]) == (False, False)
    assert rules["intra_tenant"]["direction"] == "IN_OUT"


def test_disabled_logged_and_drop_rules_are_exported(custom_site):
    rules = {c["Rule"]["id"]: c["Rule"] for c in _policies(nsx.export_infra(custom_site))["acme_custom"]["children"]}
    assert rules["disabled"]["disabled"] is True
    assert rules["partner_web"]["logged"] is True
    assert rules["block_udp"]["action"] == "DROP"
    assert rules["disabled"]["action"] == "REJECT"


def test_every_referenced_path_is_defined_in_the_body(custom_site):
    body = nsx.export_infra(custom_site)
    services = {f"/infra/services/{c['Service']['id']}" for c in _children(body, "ChildService")}
    groups = {f"/infra/domains/default/groups/{c['Group']['id']}" for c in _children(_domain(body), "ChildGroup")}
    for policy in _policies(body).values():
        for child in policy["children"]:
            rule = child["Rule"]
            assert set(rule["services"]) - {"ANY"} <= services
            assert set(rule["source_groups"] + rule["destination_groups"]) - {"ANY"} <= groups


def test_groups_list_their_addresses_and_tenant_tag(default_site):
    groups = {c["Group"]["id"]: c["Group"] for c in _children(_domain(nsx.export_infra(default_site)), "ChildGroup")}
    login = groups["tenant-acme-login"]
    assert login["expression"][0]["resource_type"] == "IPAddressExpression"
    assert login["expression"][0]["ip_addresses"] == ["10.1.0.10/32", "fd00:1::10/128"]
    assert {"scope": "enclave/tenant", "tag": "acme"} in login["tags"]


def test_the_icmp_service_has_v4_and_v6_entries(default_site):
    body = nsx.export_infra(default_site)
    icmp = next(c["Service"] for c in _children(body, "ChildService") if c["Service"]["id"] == "enclave-icmp")
    assert [e["protocol"] for e in icmp["service_entries"]] == ["ICMPv4", "ICMPv6"]


def test_the_json_is_identical_whatever_the_input_order(custom_site):
    tenants = list(custom_site.tenants)
    random.Random(3).shuffle(tenants)
    shuffled = Site(
        tuple(reversed(custom_site.policies)), tuple(tenants), tuple(reversed(custom_site.services)), custom_site.groups
    )
    text = nsx.export_infra_json(custom_site)
    assert text == nsx.export_infra_json(shuffled)
    assert json.loads(text) == nsx.export_infra(custom_site)
