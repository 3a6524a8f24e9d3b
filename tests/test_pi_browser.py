"""In Debian's Chromium (Playwright): an owner manages the tenant's groups and rules; the request form's quota panel."""

import pytest

from netpolicy.models import FirewallPolicy, FirewallRule, Group
from tenants.models import Quota, VirtualCluster
from tests.browser import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_owner_adds_a_partner_network_opens_a_rule_to_it_sees_the_warning_and_deletes_both(
        browser, live_server, world, tmp_path):  # fmt: skip
    owner = login(browser, live_server, "owner-a")
    owner.goto(f"{live_server.url}/network/firewall/")
    owner.click("#add-group")
    owner.fill("#id_name", "partners")
    owner.fill("#id_cidrs", "130.225.1.0/24")
    owner.click("#save-group")
    owner.wait_for_selector("tr[id^=group-]:has-text('tenant-a/partners')")
    partners = Group.objects.get(tenant=world.tenant_a, name="partners")

    policy = FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation")
    owner.click(f"#policy-{policy.pk} a:has-text('Add rule')")
    assert "site/nfs_servers" not in owner.inner_text("#id_destinations")  # an owner's allow rule would be refused
    owner.fill("#id_name", "partner_in")
    owner.fill("#id_sequence", "50")
    owner.select_option("#id_sources", label="tenant-a/partners")
    owner.select_option("#id_destinations", label="tenant-a/all")
    owner.select_option("#id_action", "allow")
    owner.select_option("#id_direction", "in")
    owner.click("#save-rule")
    rule = FirewallRule.objects.get(name="partner_in")
    owner.wait_for_selector(f"#rule-{rule.pk} .lint:has-text('exposes-outside')")
    owner.wait_for_selector(".messages:has-text('outside network 130.225.1.0/24')")
    owner.screenshot(path=str(tmp_path / "firewall-warning.png"))

    owner.click(f"#delete-rule-{rule.pk}")
    owner.wait_for_selector("h1:has-text('Delete rule')")
    owner.click("#confirm-delete-button")
    owner.wait_for_selector(".messages:has-text('Deleted rule')")
    assert not FirewallRule.objects.filter(pk=rule.pk).exists()
    owner.click(f"#delete-group-{partners.pk}")
    owner.click("#confirm-delete-button")
    owner.wait_for_selector(".messages:has-text('Deleted group')")
    assert not Group.objects.filter(pk=partners.pk).exists()

    member = login(browser, live_server, "member-a")
    member.goto(f"{live_server.url}/network/firewall/")
    assert member.query_selector("#add-group") is None and member.query_selector("[id^=delete-rule-]") is None


def test_the_request_form_shows_quota_use_and_applies_the_recommendation_in_one_click(browser, live_server, world):
    Quota.objects.filter(tenant=world.tenant_a).update(max_nodes=10)
    member = login(browser, live_server, "member-a")
    member.goto(f"{live_server.url}/clusters/new/")
    assert member.input_value("#id_tenant") == str(world.tenant_a.pk)  # the lone tenant, preselected
    member.wait_for_selector("#quota-panel:has-text('Quota of tenant-a')")
    member.fill("#id_name", "ml-run")
    member.fill("#id_worker_count", "4")
    member.fill("#id_vcpus_per_node", "8")
    member.fill("#id_memory_gb_per_node", "32")
    member.press("#id_memory_gb_per_node", "Tab")
    member.wait_for_selector("#quota-vm-note:has-text('This request is 6 VMs: 4 workers + 1 Slurm manager + 1 login')")
    assert member.inner_text("[data-quota=nodes]").split() == ["nodes", "10", "0", "+6", "4"]
    member.select_option("#id_workload_class", "ml")
    member.wait_for_selector("#apply-recommendation")
    member.click("#apply-recommendation")
    member.wait_for_function("document.querySelector('#id_interconnect').value === 'sriov-roce'")
    assert member.input_value("#id_data_path") == "enhanced" and member.input_value("#id_name") == "ml-run"
    assert not VirtualCluster.objects.exists()
