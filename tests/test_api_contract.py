"""The API answers as its OpenAPI schema says: what schemathesis found (tests/security/test_schemathesis.py).

Query values the schema does not allow are a 400, never silently ignored; responses match their schemas;
error statuses are documented; unknown API paths answer JSON.
"""

import ipaddress
import json
import random
import re

import pytest
from drf_spectacular.generators import SchemaGenerator
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import InvalidRequest
from core.openapi import IPV4_NETWORK, IPV6_NETWORK
from netpolicy.compiler.model import PolicyError, check_name
from netpolicy.models import Group
from tenants.models import VirtualCluster
from tests.conftest import cluster_data, service_data
from tests.vsphere.sites import make_vcenter
from vsphere.models import Host

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)


@pytest.mark.parametrize("query", ["limit=abc", "limit=0", "limit=1001", "limit=-1", "offset=AAA", "offset=-1",
                                   "offset=1.5", "limit=%EF%BC%95"])  # fmt: skip
def test_a_limit_or_offset_the_schema_does_not_allow_is_a_400(world, api, query):
    response = api(world.member_a).get(f"/api/v1/clusters/?{query}")
    assert response.status_code == 400, response.content
    assert set(response.json()) <= {"limit", "offset"}


def test_a_valid_limit_and_offset_page_as_before(world, api):
    response = api(world.member_a).get("/api/v1/tenants/?limit=1&offset=0")
    assert response.status_code == 200 and response.json()["count"] == 1


@pytest.mark.parametrize("url", ["/api/v1/groups/?site=maybe", "/api/v1/firewall-policies/?site=null",
                                 "/api/v1/tokens/?revoked=AAA", "/api/v1/firewall-rules/?enabled=yes"])  # fmt: skip
def test_a_boolean_filter_takes_only_true_or_false(world, api, url):
    assert api(world.owner_a).get(url).status_code == 400


@pytest.mark.parametrize("url", ["/api/v1/firewall-rules/?tenant=0.5", "/api/v1/clusters/?tenant=1e3",
                                 "/api/v1/segments/?vni=x", "/api/v1/vf-assignments/?tenant=2.0"])  # fmt: skip
def test_an_integer_filter_takes_only_integers(world, api, url):
    assert api(world.admin).get(url).status_code == 400


@pytest.mark.parametrize("route", ["clusters", "memberships", "quotas", "firewall-policies", "groups", "pools"])
def test_another_tenants_id_in_a_filter_answers_like_a_missing_one(world, api, route):
    client = api(world.member_a)
    foreign = client.get(f"/api/v1/{route}/?tenant={world.tenant_b.pk}")
    missing = client.get(f"/api/v1/{route}/?tenant=999999")
    assert foreign.status_code == missing.status_code == 200
    assert foreign.json()["count"] == missing.json()["count"] == 0


def test_the_audit_export_refuses_a_format_it_does_not_have(world, api):
    client = api(world.admin)
    assert client.get("/api/v1/audit-events/export/?as=xml").status_code == 400
    response = client.get("/api/v1/audit-events/export/?as=json")
    assert response.status_code == 200 and isinstance(json.loads(b"".join(response.streaming_content)), list)


def test_a_token_list_never_shows_a_plaintext_field_and_the_creation_does(world, api):
    client = api(world.owner_a)
    created = client.post("/api/v1/tokens/", {"name": "ci"}, format="json")
    assert created.status_code == 201 and created.json()["token"]
    assert all("token" not in row for row in client.get("/api/v1/tokens/").json()["results"])


def test_site_settings_never_changed_answer_a_null_update_time(world, api):
    assert api(world.member_a).get("/api/v1/site-settings/").json()["updated"] is None


def test_an_unknown_api_path_answers_json(world, api):
    response = api(world.admin).delete("/api/v1/firewall-policies/8.5e-247/")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"


def test_the_schema_documents_the_error_statuses_of_each_operation(schema):
    post = schema["paths"]["/api/v1/clusters/"]["post"]["responses"]
    assert {"201", "400", "401", "403", "404", "409", "413", "415", "429"} <= set(post)
    detail = schema["paths"]["/api/v1/clusters/{id}/"]["get"]["responses"]
    assert {"200", "401", "403", "404", "429"} <= set(detail) and "409" not in detail
    assert "Retry-After" in detail["429"]["headers"]
    assert {"404", "409"} <= set(schema["paths"]["/api/v1/exports/nft/"]["get"]["responses"])


def test_the_schema_states_what_responses_hold(schema):
    components = schema["components"]["schemas"]
    assert "token" not in components["Token"]["properties"]
    assert "token" in components["CreatedToken"]["required"]
    assert components["SiteSettings"]["properties"]["updated"].get("nullable") is True
    limit = next(p for p in schema["paths"]["/api/v1/clusters/"]["get"]["parameters"] if p["name"] == "limit")
    assert limit["schema"] == {"type": "integer", "minimum": 1, "maximum": 1000}


def test_a_policy_name_longer_than_forty_characters_is_refused():
    check_name("service", "a" * 40)
    with pytest.raises(PolicyError):
        check_name("service", "a" * 41)


@pytest.mark.parametrize("query", ["tenant=1&tenant=2", "limit=5&limit=6", "offset=0&offset=1"])
def test_a_single_valued_query_parameter_given_twice_is_a_400(world, api, query):
    assert api(world.member_a).get(f"/api/v1/clusters/?{query}").status_code == 400


def test_a_multiple_choice_filter_may_repeat(world, api):
    assert api(world.member_a).get("/api/v1/clusters/?state=draft&state=submitted").status_code == 200


def test_a_join_token_shows_its_plaintext_only_on_creation(world, api):
    from agents import services

    client = api(world.admin)
    pool = services.create_pool("contract-rack")
    created = client.post("/api/v1/join-tokens/", {"pool": pool.pk}, format="json")
    assert created.status_code == 201 and created.json()["token"].startswith("encj_")
    assert all("token" not in row for row in client.get("/api/v1/join-tokens/").json()["results"])


def test_the_schema_states_address_formats_and_strict_bodies(schema):
    components = schema["components"]["schemas"]
    assert components["JoinRequest"]["additionalProperties"] is False
    source = components["WhatIfRequest"]["properties"]["source"]
    assert {"type": "string", "format": "ipv4"} in source["anyOf"] and {"type": "string", "format": "ipv6"} in source[
        "anyOf"
    ]
    assert "token" not in components["JoinToken"]["properties"]
    assert components["InterfaceRequest"]["additionalProperties"] is False
    assert len(components["GroupRequest"]["properties"]["cidrs"]["items"]["anyOf"]) == 2
    assert components["ClusterRequest"]["properties"]["tenant"]["minimum"] == 1


def test_the_schema_says_any_write_may_be_refused_as_invalid(schema):
    assert "400" in schema["paths"]["/api/v1/clusters/{id}/submit/"]["post"]["responses"]


@pytest.mark.parametrize("query", ["limit=0", "limit=1001", "limit=x", "cursor=not-a-cursor", "tenant=0.5"])
def test_the_audit_log_refuses_paging_values_the_schema_does_not_allow(world, api, query):
    assert api(world.admin).get(f"/api/v1/audit-events/?{query}").status_code == 400


def test_a_membership_without_a_role_is_a_member(world, api, make_user):
    newcomer = make_user("newcomer")
    response = api(world.owner_a).post("/api/v1/memberships/", {"tenant": world.tenant_a.pk, "username": "newcomer"},
                                       format="json")  # fmt: skip
    assert response.status_code == 201 and response.json()["role"] == "member"
    assert world.tenant_a.memberships.get(user=newcomer).role == "member"


@pytest.mark.parametrize("until", ["0379-12-20T05:40:31.0+16:07", "2026-01-01T00:00:00-23:59"])
def test_an_audit_time_with_any_offset_python_takes_is_no_server_error(world, api, until):
    response = api(world.admin).get("/api/v1/audit-events/", {"until": until})
    assert response.status_code == 200


@pytest.mark.parametrize("query", ["vcenter=Y", "vcenter=1&vcenter=2", "vcenter=0"])
def test_the_capacity_report_refuses_a_vcenter_that_is_not_an_id(world, api, query):
    assert api(world.admin).get(f"/api/v1/vsphere/capacity/?{query}").status_code == 400


def test_a_site_server_of_whitespace_is_refused_by_the_grammar(world, api):
    response = api(world.admin).patch("/api/v1/site-settings/", {"dns_servers": ["\x0b"]}, format="json")
    assert response.status_code == 400 and "blank" not in str(response.json())


def test_services_offer_no_delete(world, api, schema):
    response = api(world.admin).delete("/api/v1/services/1/")
    assert response.status_code == 405
    assert "delete" not in schema["paths"]["/api/v1/services/{id}/"]


def test_a_group_delete_is_documented_with_the_refusal_of_a_group_in_use(world, api, schema):
    assert {"204", "400"} <= set(schema["paths"]["/api/v1/groups/{id}/"]["delete"]["responses"])
    client = api(world.owner_a)
    group = client.post("/api/v1/groups/", {"name": "partners", "tenant": world.tenant_a.pk,
                                            "cidrs": ["192.0.2.0/24"]}, format="json").json()  # fmt: skip
    assert client.delete(f"/api/v1/groups/{group['id']}/").status_code == 204
    derived = Group.objects.get(tenant=world.tenant_a, name="all")
    response = client.delete(f"/api/v1/groups/{derived.pk}/")
    assert response.status_code == 400 and "follows intent" in str(response.json())


def test_what_if_is_documented_as_the_200_it_answers(schema):
    assert set(schema["paths"]["/api/v1/what-if/"]["post"]["responses"]) >= {"200", "400"}
    assert "201" not in schema["paths"]["/api/v1/what-if/"]["post"]["responses"]


def test_a_catalog_request_names_its_cluster_by_the_same_grammar_as_the_form(world, api):
    from tests.catalog.builders import mpi_item

    item = mpi_item(world.admin)
    body = {"tenant": world.tenant_a.pk, "name": "Ù!n", "lease_end": cluster_data()["lease_end"],
            "justification": "j"}  # fmt: skip
    response = api(world.member_a).post(f"/api/v1/catalog-items/{item.pk}/request/", body, format="json")
    assert response.status_code == 400 and "name" in response.json()
    assert not VirtualCluster.objects.exists()


def test_the_service_refuses_a_cluster_name_outside_the_grammar_whoever_calls_it(world):
    from tenants import services

    data = service_data(name="eth0\nlink del lo")
    with pytest.raises(InvalidRequest) as refused:
        services.create_cluster(world.tenant_a, world.member_a, data)
    assert refused.value.field == "name" and not VirtualCluster.objects.exists()
    draft = services.create_cluster(world.tenant_a, world.member_a, {**data, "name": "fine"})
    with pytest.raises(InvalidRequest):
        services.update_draft(draft, world.member_a, {"name": "Ù"})
    assert VirtualCluster.objects.get().name == "fine"


def test_an_item_must_preset_the_workload_class_a_request_needs(world, api):
    rules = {"worker_count": {"value": 2}, "vcpus_per_node": {"value": 4}, "memory_gb_per_node": {"value": 8}}
    response = api(world.admin).post("/api/v1/catalog-items/", {"slug": "x", "name": "X", "rules": rules},
                                     format="json")  # fmt: skip
    assert response.status_code == 400 and "workload_class" in response.json()["rules"][0]


def test_the_schema_states_the_catalog_rules_and_an_unpaginated_version_list(schema):
    components = schema["components"]["schemas"]
    rules = components["CatalogItemCreateRequest"]["properties"]["rules"]
    assert rules["additionalProperties"] is False and "workload_class" in rules["required"]
    assert "rules" in components["CatalogItemCreateRequest"]["required"]
    assert components["CatalogRequestRequest"]["properties"]["name"]["pattern"]
    assert components["CatalogRequestRequest"]["properties"]["values"]["additionalProperties"] is False
    versions = schema["paths"]["/api/v1/catalog-items/{id}/versions/"]["get"]
    assert versions["responses"]["200"]["content"]["application/json"]["schema"]["type"] == "array"
    assert not [p for p in versions["parameters"] if p["in"] == "query"]


@pytest.mark.parametrize("route", ["catalog-requests", "device-assignments"])
def test_another_tenants_cluster_in_a_catalog_or_device_filter_answers_like_a_missing_one(world, api, route):
    from tenants import services

    theirs = services.create_cluster(world.tenant_b, world.member_b, service_data())
    client = api(world.member_a)
    foreign = client.get(f"/api/v1/{route}/?cluster={theirs.pk}")
    missing = client.get(f"/api/v1/{route}/?cluster=99999")
    assert foreign.status_code == missing.status_code == 200
    assert foreign.json()["count"] == missing.json()["count"] == 0


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/pci-devices/?vcenter=0.5",
        "/api/v1/device-assignments/?tenant=1e3",
        "/api/v1/catalog-items/?active=maybe",
        "/api/v1/vgpu-profiles/?vcenter=x",
    ],
)
def test_the_catalog_and_device_filters_are_as_strict_as_the_others(world, api, url):
    assert api(world.admin).get(url).status_code == 400


def test_a_host_in_the_device_filter_that_does_not_exist_is_an_empty_list(world, api):
    response = api(world.admin).get("/api/v1/pci-devices/?host=99999")
    assert response.status_code == 200 and response.json()["count"] == 0


def test_the_schema_states_which_fields_each_pool_kind_takes(schema):
    pool = schema["components"]["schemas"]["PoolRequest"]
    kinds = {variant["properties"]["kind"]["enum"][0]: variant for variant in pool["anyOf"]}
    assert set(kinds) == {"vlan", "vni", "ipv4", "ipv6", "cgnat"}
    assert kinds["vlan"]["required"] == ["kind", "first", "last"]
    assert kinds["vlan"]["properties"]["last"]["maximum"] == 4094
    assert kinds["ipv4"]["properties"]["default_prefix_length"]["maximum"] == 32
    assert "100" in kinds["cgnat"]["properties"]["cidr"]["pattern"]
    assert schema["paths"]["/api/v1/pools/"]["post"]["requestBody"]["required"] is True
    assert "anyOf" not in schema["components"]["schemas"]["PoolKindEnum"]


def test_a_cgnat_pool_schema_pattern_takes_only_the_cgnat_range(schema):
    pool = schema["components"]["schemas"]["PoolRequest"]
    pattern = next(v for v in pool["anyOf"] if v["properties"]["kind"]["enum"] == ["cgnat"])["properties"]["cidr"]
    assert re.fullmatch(pattern["pattern"], "100.64.0.0/10") and re.fullmatch(pattern["pattern"], "100.127.1.0/24")
    assert not re.fullmatch(pattern["pattern"], "100.128.0.0/10") and not re.fullmatch(pattern["pattern"], "10.0.0.0/8")


def test_the_schema_states_a_pool_subnet_is_a_network(schema):
    cidr = schema["components"]["schemas"]["PoolSubnetRequest"]["properties"]["cidr"]
    assert {option["pattern"] for option in cidr["anyOf"]}


def test_a_resize_names_what_changes(schema, world, api):
    resize = schema["components"]["schemas"]["ResizeRequest"]
    assert resize["anyOf"] == [{"required": ["worker_count"]}, {"required": ["interconnect"]}]
    assert schema["paths"]["/api/v1/clusters/{id}/resize/"]["post"]["requestBody"]["required"] is True


def test_the_schema_bounds_a_physical_functions_vfs_by_the_firmware_limit(schema, world, api):
    pf = schema["components"]["schemas"]["PhysicalFunctionRequest"]["properties"]
    assert pf["firmware_num_vfs"]["minimum"] == 1 and pf["firmware_num_vfs"]["maximum"] == 127
    assert pf["max_vfs"]["maximum"] == 126


def test_a_quota_refusal_is_a_conflict_with_the_tenants_usage(world, api):
    body = {**cluster_data(tenant=world.tenant_a.pk), "worker_count": 500, "submit": True}
    response = api(world.member_a).post("/api/v1/clusters/", body, format="json")
    assert response.status_code == 409 and response.json()["code"] == "quota_exceeded"


def test_extending_a_lease_to_no_later_date_is_a_conflict_with_the_current_lease(world, api):
    client = api(world.member_a)
    created = client.post("/api/v1/clusters/", cluster_data(tenant=world.tenant_a.pk), format="json").json()
    response = client.post(f"/api/v1/clusters/{created['id']}/extend-lease/", {"lease_end": created["lease_end"]},
                           format="json")  # fmt: skip
    assert response.status_code == 409 and "after the current one" in response.json()["lease_end"][0]


def test_the_schema_states_the_grammar_of_a_nodes_interfaces(schema):
    interface = schema["components"]["schemas"]["InterfaceRequest"]["properties"]
    assert re.fullmatch(interface["name"]["pattern"], "em1") and not re.fullmatch(interface["name"]["pattern"], "a b")
    assert interface["gateway"]["format"] == "ipv4"
    assert {option["pattern"] for option in interface["address"]["anyOf"]}


def test_the_schema_states_which_gpu_and_data_path_fields_a_new_request_takes_together(schema):
    components = schema["components"]["schemas"]
    variants = components["ClusterRequest"]["anyOf"]
    assert len(variants) == 6  # three GPU modes, each with a data path for any adapter or with VMXNET3
    vgpu = [v for v in variants if v["properties"]["gpu_mode"]["enum"] == ["vgpu"]]
    assert all(v["required"] == ["gpu_mode", "gpus_per_worker", "vgpu_profile"] for v in vgpu)
    assert {v["properties"].get("nic_type", {}).get("enum", [None])[0] for v in vgpu} == {"vmxnet3", None}
    assert "anyOf" not in components["ClusterUpdateRequest"]  # an edit merges with the stored draft


@settings(derandomize=True, max_examples=300, deadline=None)
@given(st.integers(0, 2**128 - 1), st.integers(0, 128), st.booleans())
def test_every_canonical_network_matches_the_schemas_pattern(value, length, sparse):
    if sparse:  # runs of zero groups, so `::` appears where canonical spelling puts it
        value &= int("".join(random.Random(value).choice(["ffff", "0000"]) for _ in range(8)), 16)
    network = ipaddress.IPv6Network((value, length), strict=False)
    assert re.fullmatch(IPV6_NETWORK, str(network))
    v4 = ipaddress.IPv4Network((value >> 96, length % 33), strict=False)
    assert re.fullmatch(IPV4_NETWORK, str(v4))


@pytest.mark.parametrize("text", ["b1.2/33", "2:.3b7362f0:2a8.1/109", "66b6:30f750/72", "FD00::/8", "fd00::1 /64"])
def test_the_schemas_ipv6_pattern_refuses_what_is_no_ipv6_network(text):
    assert not re.fullmatch(IPV6_NETWORK, text)


def test_the_schema_says_trimmed_text_is_never_whitespace_alone(schema):
    components = schema["components"]["schemas"]
    assert components["RejectRequest"]["properties"]["reason"]["pattern"] == r"\S"
    # A field's own grammar stays: the policy names' pattern, not the weaker one.
    assert components["ServiceRequest"]["properties"]["name"]["pattern"] == "^[a-z](?:_?[a-z0-9])*$"
    assert "pattern" not in components["SiteSettingsRequest"]["properties"]["dns_servers"]["items"]  # not trimmed


def test_a_physical_functions_firmware_rule_across_its_card_is_a_400_the_schema_describes(schema, world, api):
    pf = schema["components"]["schemas"]["PhysicalFunctionRequest"]["properties"]["firmware_num_vfs"]
    assert "every port of the card plus one" in pf["description"]
    host = Host.objects.create(vcenter=make_vcenter(), name="esx-09", compute_cluster="DC0_C0")
    body = {"host": host.pk, "pci_id": "0000:af:00.0", "pnic": "vmnic6", "firmware_num_vfs": 16, "max_vfs": 8}
    created = api(world.admin).post("/api/v1/physical-functions/", body, format="json")
    assert created.status_code == 201, created.content
    body |= {"max_vfs": 16, "firmware_num_vfs": 1}  # what schemathesis sent: each value in range, not together
    response = api(world.admin).put(f"/api/v1/physical-functions/{created.json()['id']}/", body, format="json")
    assert response.status_code == 400 and "NUM_OF_VFS must be at least" in response.json()["firmware_num_vfs"][0]
