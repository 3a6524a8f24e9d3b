"""`terraform apply/plan/import/destroy` of a tenant's segment, group, firewall policy, rules and tokens."""

import pytest

from netpolicy import rules, segments
from netpolicy.models import FirewallPolicy, FirewallRule, Group, Segment, Service
from tests.netpolicy.test_netpolicy_db_segments import make_pools
from users.models import APIToken

pytestmark = pytest.mark.django_db(transaction=True)

NETWORK = """
data "enclave_tenant" "a" {
  slug = "tenant-a"
}
data "enclave_service" "ssh" {
  name = "ssh"
}
data "enclave_service" "slurm" {
  name = "slurm"
}
resource "enclave_segment" "net" {
  tenant_id = data.enclave_tenant.a.id
  name      = "net"
  kind      = "vlan"
}
resource "enclave_group" "lab" {
  tenant_id = data.enclave_tenant.a.id
  name      = "lab"
  cidrs     = ["10.64.0.0/24"]
}
resource "enclave_firewall_policy" "app" {
  tenant_id = data.enclave_tenant.a.id
  name      = "app"
  category  = "application"
  sequence  = 100
}
resource "enclave_firewall_rule" "ssh" {
  policy_id    = enclave_firewall_policy.app.id
  name         = "ssh"
  sequence     = %(ssh_sequence)s
  sources      = [enclave_group.lab.id]
  destinations = [enclave_group.lab.id]
  services     = [data.enclave_service.%(ssh_service)s.id]
  action       = "allow"
}
resource "enclave_firewall_rule" "slurm" {
  policy_id    = enclave_firewall_policy.app.id
  name         = "slurm"
  sequence     = 20
  sources      = [enclave_group.lab.id]
  destinations = [enclave_group.lab.id]
  services     = [data.enclave_service.slurm.id]
  action       = "allow"
  direction    = "in"
}
"""


def network(ssh_sequence=10, ssh_service="ssh") -> str:
    return NETWORK % {"ssh_sequence": ssh_sequence, "ssh_service": ssh_service}


@pytest.fixture
def pools(world):
    return make_pools(world.admin)


def test_applying_a_network_creates_the_objects_and_a_second_plan_shows_no_changes(terraform, world, pools):
    terraform.write(network())
    terraform.apply()

    segment = Segment.objects.get(tenant=world.tenant_a, name="net")
    assert segment.kind == "vlan" and segment.state == "requested" and segment.vlan_id == 100
    group = Group.objects.get(tenant=world.tenant_a, name="lab")
    assert group.cidrs == ["10.64.0.0/24"]
    policy = FirewallPolicy.objects.get(tenant=world.tenant_a, name="app")
    assert policy.category == "application" and policy.sequence == 100
    ssh, slurm = FirewallRule.objects.filter(policy=policy).order_by("sequence")
    assert (ssh.name, ssh.sequence, slurm.name, slurm.sequence) == ("ssh", 10, "slurm", 20)
    assert [s.name for s in ssh.services.all()] == ["ssh"] and slurm.direction == "in"
    assert list(ssh.sources.all()) == [group] and list(ssh.destinations.all()) == [group]
    state = terraform.state()
    assert state["enclave_firewall_rule.ssh"]["id"] == str(ssh.pk)
    assert state["enclave_segment.net"]["subnet"] == str(segment.subnet)

    assert terraform.plan_changes() == 0


def test_a_new_sequence_and_port_update_the_rule_in_place_keeping_its_id(terraform, world, pools):
    terraform.write(network())
    terraform.apply()
    ssh = FirewallRule.objects.get(policy__tenant=world.tenant_a, name="ssh")

    terraform.write(network(ssh_sequence=30, ssh_service="slurm"))
    plan = terraform.run("plan").stdout
    assert "enclave_firewall_rule.ssh will be updated in-place" in plan
    assert "0 to add, 1 to change, 0 to destroy" in plan
    terraform.apply()

    moved = FirewallRule.objects.get(pk=ssh.pk)
    assert moved.sequence == 30 and [s.name for s in moved.services.all()] == ["slurm"]
    names = FirewallRule.objects.filter(policy=moved.policy).order_by("sequence").values_list("name", flat=True)
    assert list(names) == ["slurm", "ssh"]
    assert terraform.plan_changes() == 0


def test_a_sequence_already_taken_is_refused_with_the_apis_field_message(terraform, world, pools):
    terraform.write(network())
    terraform.apply()
    terraform.write(network(ssh_sequence=20))
    result = terraform.apply(check=False)
    assert result.returncode == 1
    assert "Enclave refused the request (400)" in result.stderr
    assert "sequence: Sequence number 20 is already used by rule 'slurm'" in result.stderr
    assert FirewallRule.objects.get(policy__tenant=world.tenant_a, name="ssh").sequence == 10


def test_destroy_retires_the_segment_and_deletes_the_group_policy_and_rules(terraform, world, pools):
    terraform.write(network())
    terraform.apply()
    terraform.run("destroy", "-auto-approve")
    assert Segment.objects.get(tenant=world.tenant_a, name="net").state == "retired"
    assert not Group.objects.filter(tenant=world.tenant_a, name="lab").exists()
    assert not FirewallPolicy.objects.filter(tenant=world.tenant_a, name="app").exists()
    assert not FirewallRule.objects.filter(name__in=["ssh", "slurm"], policy__tenant=world.tenant_a).exists()
    assert terraform.state() == {}


IMPORTED = """
resource "enclave_segment" "net" {
  tenant_id = %(tenant)d
  name      = "old-net"
  kind      = "vlan"
}
resource "enclave_firewall_rule" "web" {
  policy_id    = %(policy)d
  name         = "web"
  sequence     = 500
  sources      = [%(group)d]
  destinations = [%(group)d]
  services     = [%(ssh)d]
  action       = "allow"
  direction    = "in"
}
"""


def test_an_existing_segment_and_rule_are_imported_and_then_plan_shows_no_changes(terraform, world, pools):
    segment = segments.create_segment(world.tenant_a, world.owner_a, {"name": "old-net", "kind": "vlan"})
    every = Group.objects.get(tenant=world.tenant_a, name="all")
    policy = FirewallPolicy.objects.get(tenant=world.tenant_a, name="isolation")
    ssh = Service.objects.get(name="ssh")
    rule = rules.save_rule(world.owner_a, {
        "policy": policy, "name": "web", "sequence": 500, "sources": [every], "destinations": [every],
        "services": [ssh], "action": "allow", "direction": "in",
    })  # fmt: skip
    terraform.write(IMPORTED % {"tenant": world.tenant_a.pk, "policy": policy.pk, "group": every.pk, "ssh": ssh.pk})

    terraform.run("import", "enclave_segment.net", str(segment.pk))
    terraform.run("import", "enclave_firewall_rule.web", str(rule.pk))

    state = terraform.state()
    assert state["enclave_segment.net"]["vlan_id"] == segment.vlan_id
    assert state["enclave_firewall_rule.web"]["sequence"] == 500
    assert terraform.plan_changes() == 0


def test_importing_an_object_of_another_tenant_says_it_is_not_found(terraform, world, pools):
    other = segments.create_segment(world.tenant_b, world.owner_b, {"name": "theirs", "kind": "vlan"})
    terraform.write(IMPORTED.split('resource "enclave_firewall_rule"')[0] % {"tenant": world.tenant_a.pk})
    result = terraform.run("import", "enclave_segment.net", str(other.pk), check=False)
    assert result.returncode == 1
    assert "Cannot import non-existent remote object" in result.stderr


TOKEN = """
resource "enclave_token" "ci" {
  name  = "ci"
  scope = "read"
}
output "token" {
  value     = enclave_token.ci.token
  sensitive = true
}
"""


def test_a_token_is_created_with_its_plaintext_once_and_revoked_on_destroy(terraform, world):
    terraform.write(TOKEN)
    terraform.apply()
    raw = terraform.run("output", "-raw", "token").stdout
    token = APIToken.objects.get(user=world.owner_a, name="ci")
    assert token.scope == "read" and raw.startswith(token.hint) and token.revoked_at is None
    assert terraform.plan_changes() == 0
    terraform.run("destroy", "-auto-approve")
    token.refresh_from_db()
    assert token.revoked_at is not None


def test_a_bad_token_is_a_clear_authentication_error(terraform):
    terraform.env["ENCLAVE_TOKEN"] = "not-a-token"
    terraform.write('data "enclave_tenant" "a" {\n  slug = "tenant-a"\n}\n')
    result = terraform.run("plan", check=False)
    assert result.returncode == 1
    assert "Enclave did not accept the API token (401)" in result.stderr


def test_a_server_that_is_down_is_named_as_unreachable(terraform):
    terraform.env["ENCLAVE_URL"] = "http://127.0.0.1:9"
    terraform.write('data "enclave_tenant" "a" {\n  slug = "tenant-a"\n}\n')
    result = terraform.run("plan", check=False)
    assert result.returncode == 1
    assert "Enclave is unreachable" in result.stderr and "cannot reach Enclave at http://127.0.0.1:9" in result.stderr


def test_a_wrong_tenant_slug_says_no_such_tenant(terraform, world):
    terraform.write('data "enclave_tenant" "x" {\n  slug = "tenant-b"\n}\n')
    result = terraform.run("plan", check=False)
    assert result.returncode == 1
    assert 'No tenant with slug "tenant-b" among this token\'s tenants.' in result.stderr
