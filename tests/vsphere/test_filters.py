"""The tenant policy as the port group's traffic filter on the simulator: applied, read back, drift repaired."""

from dataclasses import replace

from pyVmomi import vim

from netpolicy.compiler.vds import compile_tenant
from tests.netpolicy.builders import make_site, make_tenant
from tests.vsphere.conftest import cluster_intent
from vsphere.plan.changes import ChangeKind
from vsphere.reconcile.converge import converge, preview

RULES = compile_tenant(make_site([make_tenant("acme", 1), make_tenant("beta", 2)]), "acme")


def filtered(intent):
    return replace(intent, filter_rules=RULES)


def raw_ruleset(driver, portgroup):
    """The port group's traffic ruleset as vCenter returns it (no Enclave parsing)."""
    pg = driver.snapshot("DC0").portgroups[portgroup][1]
    (config,) = pg.config.defaultPortConfig.filterPolicy.filterConfig
    return pg.config.defaultPortConfig.vlan.vlanId, config.trafficRuleset


def reconfigure_portgroup(driver, portgroup, mutate):
    """An out-of-band edit of the port group's default port config, keeping the rest of its spec."""
    pg = driver.snapshot("DC0").portgroups[portgroup][1]
    config = pg.config
    port_config = config.defaultPortConfig
    mutate(port_config)
    spec = vim.dvs.DistributedVirtualPortgroup.ConfigSpec(
        name=config.name, description=config.description, type=config.type, numPorts=config.numPorts,
        autoExpand=config.autoExpand, configVersion=config.configVersion, defaultPortConfig=port_config,
    )  # fmt: skip
    driver.wait(pg.ReconfigureDVPortgroup_Task(spec), "out of band")


def test_the_compiled_policy_is_the_port_groups_ruleset_and_reads_back_the_same(driver, names):
    intent = filtered(cluster_intent(names("c"), 1, vlan=430, pf=None))
    create = next(c for c in preview(driver, intent) if c.kind == ChangeKind.CREATE_PORTGROUP)
    assert f"traffic filter of {len(RULES)} rules" in create.detail
    converge(driver, intent)
    vlan, ruleset = raw_ruleset(driver, intent.portgroup)
    assert vlan == 430 and ruleset.enabled and len(ruleset.rules) == len(RULES)
    ssh = [r for r in ruleset.rules if r.description == "enclave acme_isolation/ssh_to_login"]
    assert {(r.direction, r.qualifier[0].destinationIpPort.portNumber) for r in ssh} == {("outgoingPackets", 22)}
    assert isinstance(ruleset.rules[-1].action, vim.dvs.TrafficRule.DropAction)
    assert driver.observe(intent).portgroup.filter_rules == RULES
    assert preview(driver, intent) == []


def test_a_filter_removed_out_of_band_is_drift_and_reapplied_with_the_vlan_kept(driver, names):
    intent = filtered(cluster_intent(names("c"), 1, vlan=431, pf=None))
    converge(driver, intent)
    reconfigure_portgroup(driver, intent.portgroup, lambda pc: setattr(pc, "filterPolicy", None))
    drift = preview(driver, intent)
    assert [c.kind for c in drift] == [ChangeKind.SET_PORTGROUP_FILTER]
    assert "no traffic filter" in drift[0].detail
    converge(driver, intent)
    assert raw_ruleset(driver, intent.portgroup)[0] == 431
    assert driver.observe(intent).portgroup.filter_rules == RULES


def test_a_rule_changed_out_of_band_is_drift(driver, names):
    intent = filtered(cluster_intent(names("c"), 1, vlan=432, pf=None))
    converge(driver, intent)

    def open_up(port_config):
        last = port_config.filterPolicy.filterConfig[0].trafficRuleset.rules[-1]
        last.action = vim.dvs.TrafficRule.AcceptAction()  # the catch-all drop becomes accept

    reconfigure_portgroup(driver, intent.portgroup, open_up)
    (change,) = preview(driver, intent)
    assert change.kind == ChangeKind.SET_PORTGROUP_FILTER and "1 rules missing, 1 not in the policy" in change.detail
    converge(driver, intent)
    assert preview(driver, intent) == []


def test_a_vlan_change_keeps_the_filter(driver, names):
    intent = filtered(cluster_intent(names("c"), 1, vlan=433, pf=None))
    converge(driver, intent)
    moved = replace(intent, vlan=434)
    assert [c.kind for c in preview(driver, moved)] == [ChangeKind.SET_PORTGROUP_VLAN]
    converge(driver, moved)
    assert raw_ruleset(driver, intent.portgroup)[0] == 434
    assert preview(driver, moved) == []


def test_one_push_applies_many_port_groups_filters_and_a_second_changes_nothing(driver, names, vcsim):
    from vsphere.reconcile.portgroup_filters import PortgroupFilter, push

    intents = [cluster_intent(names(f"p{i}"), 1, vlan=440 + i, pf=None) for i in range(3)]
    for intent in intents:
        converge(driver, intent)  # port groups without a managed filter yet
    wanted = [PortgroupFilter(i.portgroup, i.portgroup_marker, i.vlan, RULES) for i in intents]
    wanted.append(PortgroupFilter(names("absent-pg"), "m", 9, RULES))  # not created yet: left to its cluster
    before = vcsim.stats().get("ReconfigureDVPortgroup_Task", 0)
    assert sorted(push(driver, "DC0", wanted)) == sorted(i.portgroup for i in intents)
    assert vcsim.stats()["ReconfigureDVPortgroup_Task"] == before + 3
    assert all(driver.observe(i).portgroup.filter_rules == RULES for i in intents)
    assert push(driver, "DC0", wanted) == []
    foreign = [PortgroupFilter(intents[0].portgroup, "someone-else", 440, ())]
    assert push(driver, "DC0", foreign) == []  # a marker that is not ours: never touched
