"""The API answers as its OpenAPI schema says: what schemathesis found (tests/security/test_schemathesis.py).

Query values the schema does not allow are a 400, never silently ignored; responses match their schemas;
error statuses are documented; unknown API paths answer JSON.
"""

import json

import pytest
from drf_spectacular.generators import SchemaGenerator

from netpolicy.compiler.model import PolicyError, check_name

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


@pytest.mark.parametrize("route", ["services", "groups"])
def test_services_and_groups_offer_no_delete(world, api, route, schema):
    response = api(world.admin).delete(f"/api/v1/{route}/1/")
    assert response.status_code == 405
    assert "delete" not in schema["paths"][f"/api/v1/{route}/{{id}}/"]


def test_what_if_is_documented_as_the_200_it_answers(schema):
    assert set(schema["paths"]["/api/v1/what-if/"]["post"]["responses"]) >= {"200", "400"}
    assert "201" not in schema["paths"]["/api/v1/what-if/"]["post"]["responses"]
