"""The nft compiler: real `nft -c` acceptance, determinism, and incremental updates."""

import json
import random

from netpolicy.compiler import nft
from netpolicy.compiler.model import Action, Protocol, Rule, Service, Site, Tenant
from tests.netpolicy.builders import custom_policy, make_site, make_tenant


def test_the_default_ruleset_passes_nft_check(default_site, netns, tmp_path):
    result = netns.nft(nft.compile_ruleset(default_site), tmp_path, check_only=True)
    assert result.returncode == 0, result.stderr


def test_a_ruleset_with_custom_rules_passes_nft_check(custom_site, netns, tmp_path):
    result = netns.nft(nft.compile_ruleset(custom_site), tmp_path, check_only=True)
    assert result.returncode == 0, result.stderr


def test_the_linear_baseline_passes_nft_check(custom_site, netns, tmp_path):
    result = netns.nft(nft.compile_linear(custom_site), tmp_path, check_only=True)
    assert result.returncode == 0, result.stderr


def test_an_empty_site_passes_nft_check(netns, tmp_path):
    result = netns.nft(nft.compile_ruleset(Site()), tmp_path, check_only=True)
    assert result.returncode == 0, result.stderr


def test_the_ruleset_owns_only_table_inet_enclave(custom_site):
    text = nft.compile_ruleset(custom_site)
    tables = {line for line in text.splitlines() if "table" in line and "\t" not in line}
    assert tables == {"table inet enclave {", "delete table inet enclave"}
    assert "flush ruleset" not in text


def test_the_ruleset_dispatches_tenants_through_verdict_maps(custom_site):
    text = nft.compile_ruleset(custom_site)
    assert "iifname vmap @ingress_if" in text
    assert '"vrf1003" : jump t__gamma__out' in text
    # Per-packet cost must not depend on tenant count: no interface match in any rule.
    assert 'iifname "' not in text.replace('"vrf', "")


def test_compiling_twice_gives_identical_text(custom_site):
    assert nft.compile_ruleset(custom_site) == nft.compile_ruleset(custom_site)


def test_input_order_does_not_change_the_output(custom_site):
    tenants = list(custom_site.tenants)
    random.Random(7).shuffle(tenants)
    shuffled = Site(
        tuple(reversed(custom_site.policies)),
        tuple(tenants),
        tuple(reversed(custom_site.services)),
        tuple(reversed(custom_site.groups)),
    )
    assert nft.compile_ruleset(shuffled) == nft.compile_ruleset(custom_site)


def test_a_disabled_rule_is_not_compiled(custom_site):
    assert "acme_custom/disabled" not in nft.compile_ruleset(custom_site)


def test_a_logged_rule_logs_with_its_id(custom_site):
    assert 'log prefix "enclave acme_custom/partner_web "' in nft.compile_ruleset(custom_site)


def _objects(netns):
    """Sets, maps and chains of our table, independent of creation order and handles."""
    listing = json.loads(netns.run("nft", "-j", "list", "table", "inet", "enclave").stdout)
    objects = {}
    for item in listing["nftables"]:
        kind, body = next(iter(item.items()))
        if kind in ("set", "map"):
            elements = [json.dumps(e, sort_keys=True) for e in body.get("elem", [])]
            objects[(kind, body["name"])] = sorted(elements)
        elif kind == "rule":
            objects.setdefault(("chain", body["chain"]), []).append(json.dumps(body["expr"], sort_keys=True))
    return objects


def _changed_site(site):
    """Acme with a new interface and a custom policy that no longer uses its extra groups."""
    acme = site.tenant("acme")
    policy = custom_policy("acme", 1, (Rule("only_drop", 5, Action.DROP),))
    isolation = next(p for p in acme.policies if p.id == "acme_isolation")
    new_acme = Tenant("acme", "vrf2001", acme.cidrs, (isolation, policy))
    others = [t for t in site.tenants if t.name != "acme"]
    return Site(site.policies, (new_acme, *others), site.services, site.groups), acme


def test_a_tenant_update_equals_a_full_recompile(custom_site, netns, tmp_path):
    new_site, old_acme = _changed_site(custom_site)
    assert netns.nft(nft.compile_ruleset(new_site), tmp_path).returncode == 0
    expected = _objects(netns)
    assert netns.nft(nft.compile_ruleset(custom_site), tmp_path).returncode == 0
    update = nft.compile_tenant_update(new_site, "acme", previous=old_acme)
    check = netns.nft(update, tmp_path, check_only=True)
    assert check.returncode == 0, check.stderr
    assert netns.nft(update, tmp_path).returncode == 0
    assert _objects(netns) == expected


def test_a_tenant_update_touches_only_that_tenant(custom_site):
    update = nft.compile_tenant_update(custom_site, "acme")
    assert "gamma" not in update and "beta" not in update
    assert "delete table" not in update and "flush ruleset" not in update


def test_a_tenant_update_can_use_a_service_new_to_the_node(netns, tmp_path):
    old_site = make_site([make_tenant("beta", 2)])
    odd = Service("odd", Protocol.TCP, ("9999",))
    policy = custom_policy("beta", 2, (Rule("odd", 1, Action.ALLOW, services=(odd,)),))
    new_site = make_site([make_tenant("beta", 2, (policy,))])
    assert netns.nft(nft.compile_ruleset(old_site), tmp_path).returncode == 0
    result = netns.nft(nft.compile_tenant_update(new_site, "beta"), tmp_path)
    assert result.returncode == 0, result.stderr
    assert "9999" in netns.run("nft", "list", "set", "inet", "enclave", "svc__odd").stdout
