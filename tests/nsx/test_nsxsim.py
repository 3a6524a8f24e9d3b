"""The NSX Manager stand-in behaves like NSX where Enclave depends on it, and as strictly as the NSX SDK's models."""

from __future__ import annotations

import itertools
import json
import time

import pytest
from pyVmomi import vim
from vmware.vapi.bindings.converter import RestConverter, TypeConverter
from vmware.vapi.data.serializers.cleanjson import DataValueConverter

from tests.nsx.conftest import DC
from tests.vsphere.conftest import HOST_NAMES
from tools.nsxsim import schema
from vsphere.plan.specs import Adapter, NodeIntent
from vsphere.vim.driver import Driver

T0 = "/infra/tier-0s/t0-site"
TZ = "/infra/sites/default/enforcement-points/default/transport-zones/tz-overlay"
DOMAIN = "/infra/domains/default"
VMS = "/infra/realized-state/enforcement-points/default/virtual-machines"
INFRA = "PATCH /policy/api/v1/infra"
_counter = itertools.count()


@pytest.fixture
def ids(nsx):
    """A unique id prefix per test; whatever the test left in the stand-in is deleted afterwards."""
    prefix = f"n{next(_counter)}-"
    yield prefix
    nsx.clear_faults()
    order = ("/security-policies/", "/groups/", "/segments/", "/tier-1s/", "/services/")
    for part in order:
        for path in nsx.objects():
            tail = path.split(part, 1)[-1]
            if part in path and tail.startswith(prefix) and "/" not in tail:
                nsx.delete(path)
    assert not [p for p in nsx.objects() if f"/{prefix}" in p], "the test left objects behind"


def sdk_valid(answer, type_name: str) -> None:
    """An answer is valid for the SDK type: strictly (the stand-in's checker) and as the SDK client parses it."""
    schema.validate(answer, type_name, f"answer ({type_name})")
    data = DataValueConverter.convert_to_data_value(json.dumps(answer))
    binding = schema.model(type_name).get_binding_type()
    TypeConverter.convert_to_python(data, binding, rest_converter_mode=RestConverter.SWAGGER_REST)


def wrap(kind: str, **obj) -> dict:
    """A Child<kind> wrapper around an object of that kind."""
    return {"resource_type": f"Child{kind}", kind: {"resource_type": kind, **obj}}


def in_domain(*children: dict) -> dict:
    """The default domain, named only to reach its children."""
    return {
        "resource_type": "ChildResourceReference",
        "id": "default",
        "target_type": "Domain",
        "children": list(children),
    }


def tag_group(gid: str, scope: str, tag: str) -> dict:
    """A group of the VMs tagged scope|tag."""
    condition = {"resource_type": "Condition", "member_type": "VirtualMachine", "key": "Tag", "operator": "EQUALS",
                 "value": f"{scope}|{tag}"}  # fmt: skip
    return wrap("Group", id=gid, expression=[condition])


def rule(rid: str, **fields) -> dict:
    """A ChildRule allowing ANY to ANY unless told otherwise."""
    values = {"action": "ALLOW", "source_groups": ["ANY"], "destination_groups": ["ANY"], "services": ["ANY"],
              "scope": ["ANY"], "sequence_number": 10}  # fmt: skip
    return wrap("Rule", id=rid, **{**values, **fields})


def policy(pid: str, *rules: dict) -> dict:
    return wrap("SecurityPolicy", id=pid, category="Application", children=list(rules))


def tenant_tree(p: str) -> list[dict]:
    """Tier-1, segment, service, group and a policy with two rules, as one hierarchical body."""
    entry = {"resource_type": "L4PortSetServiceEntry", "id": "tcp", "l4_protocol": "TCP", "destination_ports": ["5000"]}
    service = wrap("Service", id=f"{p}mpi", service_entries=[entry])
    group = f"{DOMAIN}/groups/{p}vms"
    return [
        wrap("Tier1", id=f"{p}t1", tier0_path=T0),
        wrap(
            "Segment",
            id=f"{p}seg",
            connectivity_path=f"/infra/tier-1s/{p}t1",
            transport_zone_path=TZ,
            subnets=[{"gateway_address": "10.7.0.1/24"}],
        ),  # fmt: skip
        service,
        in_domain(
            tag_group(f"{p}vms", "tenant", p),
            policy(
                f"{p}pol",
                rule("r1", source_groups=[group], destination_groups=[group], services=[f"/infra/services/{p}mpi"]),
                rule("r2", action="DROP", sequence_number=20),
            ),
        ),  # fmt: skip
    ]


def test_the_hierarchical_patch_creates_tier1_segment_service_group_and_policy_with_rules(nsx, ids):
    status, _ = nsx.patch_infra(*tenant_tree(ids))
    assert status == 200
    pol = f"{DOMAIN}/security-policies/{ids}pol"
    for path in (f"/infra/tier-1s/{ids}t1", f"/infra/segments/{ids}seg", f"/infra/services/{ids}mpi",
                 f"/infra/services/{ids}mpi/service-entries/tcp", f"{DOMAIN}/groups/{ids}vms", pol,
                 f"{pol}/rules/r1", f"{pol}/rules/r2"):  # fmt: skip
        assert path in nsx.objects()
    status, got = nsx.call("GET", pol)
    assert status == 200 and [r["id"] for r in got["rules"]] == ["r1", "r2"]
    assert got["_revision"] == 0 and got["display_name"] == f"{ids}pol" and got["marked_for_delete"] is False
    sdk_valid(got, "SecurityPolicy")
    status, segments = nsx.call("GET", "/infra/segments")
    assert status == 200 and segments["result_count"] == len(segments["results"])
    sdk_valid(segments, "SegmentListResult")
    status, service = nsx.call("GET", f"/infra/services/{ids}mpi")
    assert service["service_entries"][0]["destination_ports"] == ["5000"]


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("bogus", 1, "Field 'bogus' is not allowed in Segment"),
        ("vlan_ids", "12", "field vlan_ids: expected array, got string"),
        ("admin_state", "SIDEWAYS", "Field 'admin_state' of Segment has invalid value 'SIDEWAYS'"),
        ("subnets", [{"gateway": "10.0.0.1/24"}], "Field 'gateway' is not allowed in SegmentSubnet"),
    ],
)
def test_a_patch_with_an_unknown_field_a_wrong_type_or_a_bad_enum_is_refused_and_changes_nothing(
    nsx, ids, field, value, named
):
    before = nsx.objects()
    status, error = nsx.patch_infra(wrap("Tier1", id=f"{ids}t1", tier0_path=T0),
                                    wrap("Segment", id=f"{ids}seg", **{field: value}))  # fmt: skip
    assert status == 400 and error["httpStatus"] == "BAD_REQUEST" and error["module_name"] == "nsx-policy"
    assert named in error["error_message"] and f"/infra/segments/{ids}seg" in error["error_message"]
    assert nsx.objects() == before


def test_a_resource_type_that_does_not_match_its_wrapper_or_the_sdk_is_refused(nsx, ids):
    wrong = {"resource_type": "ChildSegment", "Segment": {"resource_type": "Tier1", "id": f"{ids}x"}}
    status, error = nsx.patch_infra(wrong)
    assert status == 400 and "'Tier1' does not match Segment" in error["error_message"]
    status, error = nsx.patch_infra({"resource_type": "ChildWidget", "Widget": {"id": "w"}})
    assert status == 400 and "ChildWidget" in error["error_message"]
    bad_expr = wrap("Group", id=f"{ids}g", expression=[{"resource_type": "Segment"}])
    status, error = nsx.patch_infra(in_domain(bad_expr))
    assert status == 400 and "is not a kind of Expression" in error["error_message"]


def test_a_rule_naming_a_missing_group_is_refused_naming_the_path(nsx, ids):
    before = nsx.objects()
    missing = f"{DOMAIN}/groups/{ids}nothere"
    status, error = nsx.patch_infra(in_domain(policy(f"{ids}pol", rule("r1", source_groups=[missing]))))
    assert status == 400 and missing in error["error_message"] and "source_groups" in error["error_message"]
    assert nsx.objects() == before
    status, error = nsx.patch_infra(wrap("Segment", id=f"{ids}seg", connectivity_path=f"/infra/tier-1s/{ids}no"))
    assert status == 400 and f"/infra/tier-1s/{ids}no" in error["error_message"]


def test_a_tier1_s_locale_services_must_name_an_existing_edge_cluster(nsx, ids):
    edge = "/infra/sites/default/enforcement-points/default/edge-clusters/edge-1"
    locale = wrap("LocaleServices", id="default", edge_cluster_path=edge)
    assert nsx.patch_infra(wrap("Tier1", id=f"{ids}t1", tier0_path=T0, children=[locale]))[0] == 200
    assert nsx.call("GET", f"/infra/tier-1s/{ids}t1/locale-services/default")[1]["edge_cluster_path"] == edge
    locale["LocaleServices"]["edge_cluster_path"] = edge + "-gone"
    status, error = nsx.patch_infra(wrap("Tier1", id=f"{ids}t1", children=[locale]))
    assert status == 400 and edge + "-gone" in error["error_message"]


def test_references_are_checked_on_the_final_state_of_the_whole_patch(nsx, ids):
    group = f"{DOMAIN}/groups/{ids}g"
    status, _ = nsx.patch_infra(in_domain(policy(f"{ids}pol", rule("r1", source_groups=[group])),
                                          tag_group(f"{ids}g", "tenant", ids)))  # fmt: skip
    assert status == 200


def test_an_in_use_group_cannot_be_deleted_but_goes_together_with_its_rule(nsx, ids):
    assert nsx.patch_infra(*tenant_tree(ids))[0] == 200
    group, pol = f"{DOMAIN}/groups/{ids}vms", f"{DOMAIN}/security-policies/{ids}pol"
    status, error = nsx.call("DELETE", group)
    assert status == 400 and "in use" in error["error_message"] and f"{pol}/rules/r1" in error["error_message"]
    gone = wrap("Group", id=f"{ids}vms", marked_for_delete=True)
    status, error = nsx.patch_infra(in_domain(gone))
    assert status == 400 and group in nsx.objects()
    rule_gone = {"resource_type": "ChildRule", "marked_for_delete": True, "Rule": {"resource_type": "Rule", "id": "r1"}}
    policy_ref = {"resource_type": "ChildResourceReference", "target_type": "SecurityPolicy", "id": f"{ids}pol",
                  "children": [rule_gone]}  # fmt: skip
    status, error = nsx.patch_infra(in_domain(gone, policy_ref))
    assert status == 200, error
    assert group not in nsx.objects() and f"{pol}/rules/r1" not in nsx.objects() and f"{pol}/rules/r2" in nsx.objects()


def test_a_tier1_used_by_a_segment_cannot_be_deleted(nsx, ids):
    assert nsx.patch_infra(*tenant_tree(ids))[0] == 200
    status, error = nsx.call("DELETE", f"/infra/tier-1s/{ids}t1")
    assert status == 400 and f"/infra/segments/{ids}seg" in error["error_message"]


def test_a_stale_revision_is_refused_with_412_and_nothing_is_applied(nsx, ids):
    assert nsx.patch_infra(wrap("Tier1", id=f"{ids}t1", tier0_path=T0))[0] == 200
    assert nsx.call("PATCH", f"/infra/tier-1s/{ids}t1", {"description": "one"})[0] == 200
    status, t1 = nsx.call("GET", f"/infra/tier-1s/{ids}t1")
    assert t1["_revision"] == 1
    stale = wrap("Tier1", id=f"{ids}t1", _revision=0, description="two")
    status, error = nsx.patch_infra(wrap("Service", id=f"{ids}svc"), stale)
    assert status == 412 and error["error_code"] == 604 and error["httpStatus"] == "PRECONDITION_FAILED"
    assert f"/infra/services/{ids}svc" not in nsx.objects()
    assert nsx.call("GET", f"/infra/tier-1s/{ids}t1")[1]["description"] == "one"
    current = wrap("Tier1", id=f"{ids}t1", _revision=1, description="two")
    assert nsx.patch_infra(current)[0] == 200
    assert nsx.call("GET", f"/infra/tier-1s/{ids}t1")[1]["_revision"] == 2


def test_a_put_of_an_existing_object_needs_its_current_revision_and_replaces_it(nsx, ids):
    path = f"/infra/tier-1s/{ids}t1"
    status, created = nsx.call("PUT", path, {"tier0_path": T0, "description": "d"})
    assert status == 200 and created["_revision"] == 0
    assert nsx.call("PUT", path, {"tier0_path": T0})[0] == 412
    assert nsx.call("PUT", path, {"tier0_path": T0, "_revision": 5})[0] == 412
    status, replaced = nsx.call("PUT", path, {"tier0_path": T0, "_revision": 0})
    assert status == 200 and replaced["_revision"] == 1 and "description" not in replaced


def test_a_patch_merges_fields_and_changes_the_revision_only_when_something_changed(nsx, ids):
    path = f"/infra/segments/{ids}seg"
    assert nsx.call("PATCH", path, {"connectivity_path": T0, "description": "a"})[0] == 200
    assert nsx.call("PATCH", path, {"display_name": f"{ids}net"})[0] == 200
    status, seg = nsx.call("GET", path)
    assert seg["description"] == "a" and seg["display_name"] == f"{ids}net" and seg["_revision"] == 1
    assert nsx.call("PATCH", path, {"description": "a"})[0] == 200
    assert nsx.call("GET", path)[1]["_revision"] == 1
    sdk_valid(seg, "Segment")


def test_single_objects_and_collections_answer_like_nsx(nsx, ids):
    assert nsx.patch_infra(*tenant_tree(ids))[0] == 200
    pol = f"{DOMAIN}/security-policies/{ids}pol"
    status, rules = nsx.call("GET", f"{pol}/rules")
    assert status == 200 and rules["result_count"] == 2
    sdk_valid(rules, "RuleListResult")
    status, groups = nsx.call("GET", f"{DOMAIN}/groups")
    assert f"{DOMAIN}/groups/{ids}vms" in [g["path"] for g in groups["results"]]
    sdk_valid(groups, "GroupListResult")
    assert nsx.call("PATCH", f"{pol}/rules/r3", {"action": "REJECT", "source_groups": ["10.0.0.0/8"]})[0] == 200
    assert nsx.call("GET", f"{pol}/rules/r3")[1]["parent_path"] == pol
    assert nsx.call("DELETE", f"{pol}/rules/r3")[0] == 200
    assert nsx.call("GET", f"{pol}/rules/r3")[0] == 404
    assert nsx.call("DELETE", f"{pol}/rules/r3")[0] == 200  # deleting what is gone is not an error in NSX
    status, error = nsx.call("GET", f"/infra/tier-1s/{ids}none")
    assert status == 404 and error["httpStatus"] == "NOT_FOUND"
    assert nsx.call("PATCH", f"{DOMAIN}/security-policies/{ids}none/rules/r1", {"action": "ALLOW"})[0] == 404


def test_realization_goes_in_progress_then_realized_and_the_answers_match_the_sdk_models(nsx, ids):
    assert nsx.patch_infra(wrap("Tier1", id=f"{ids}t1", tier0_path=T0))[0] == 200
    path = f"/infra/tier-1s/{ids}t1"
    status, first = nsx.status(path)
    assert status == 200 and first["consolidated_status"]["consolidated_status"] == "IN_PROGRESS"
    sdk_valid(first, "ConsolidatedRealizedStatus")
    done = nsx.wait_status(path)
    assert done["publish_status"] == "REALIZED" and done["intent_path"] == path
    sdk_valid(done, "ConsolidatedRealizedStatus")
    status, entities = nsx.call("GET", f"/infra/realized-state/realized-entities?intent_path={path}")
    assert status == 200 and entities["results"][0]["state"] == "REALIZED"
    sdk_valid(entities, "GenericPolicyRealizedResourceListResult")
    uid = entities["results"][0]["realization_specific_identifier"]
    assert nsx.call("PATCH", path, {"description": "changed"})[0] == 200
    assert nsx.status(path)[1]["consolidated_status"]["consolidated_status"] == "IN_PROGRESS"
    nsx.wait_status(path)
    again = nsx.call("GET", f"/infra/realized-state/realized-entities?intent_path={path}")[1]
    assert again["results"][0]["realization_specific_identifier"] == uid
    assert nsx.status(f"/infra/tier-1s/{ids}none")[0] == 404


def test_an_injected_realization_error_shows_error_with_its_message(nsx, ids):
    nsx.inject(realize_error=f"/infra/tier-1s/{ids}", message="edge cluster out of capacity", count=1)
    assert nsx.patch_infra(wrap("Tier1", id=f"{ids}t1", tier0_path=T0))[0] == 200
    path = f"/infra/tier-1s/{ids}t1"
    status = nsx.wait_status(path, "ERROR")
    assert status["consolidated_status"]["consolidated_status"] == "ERROR" and status["publish_status"] == "ERROR"
    entities = nsx.call("GET", f"/infra/realized-state/realized-entities?intent_path={path}")[1]
    sdk_valid(entities, "GenericPolicyRealizedResourceListResult")
    (entity,) = entities["results"]
    assert entity["state"] == "ERROR" and entity["alarms"][0]["message"] == "edge cluster out of capacity"
    assert nsx.call("PATCH", path, {"description": "retry"})[0] == 200  # the fault fired once: this one realizes
    assert nsx.wait_status(path)["consolidated_status"]["consolidated_status"] == "SUCCESS"


def test_an_injected_503_is_answered_once_then_the_call_works(nsx, ids):
    nsx.inject({"method": "PATCH", "path": "/policy/api/v1/infra", "status": 503, "count": 1})
    body = wrap("Tier1", id=f"{ids}t1", tier0_path=T0)
    status, error = nsx.patch_infra(body)
    assert status == 503 and error["httpStatus"] == "SERVICE_UNAVAILABLE"
    assert f"/infra/tier-1s/{ids}t1" not in nsx.objects()
    assert nsx.patch_infra(body)[0] == 200
    nsx.inject(method="GET", path="/policy/api/v1/infra/segments", delay=0.3)  # slow, then answered
    started = time.monotonic()
    status, segments = nsx.call("GET", "/infra/segments")
    assert status == 200 and "results" in segments and time.monotonic() - started >= 0.3
    with pytest.raises(RuntimeError, match="400"):
        nsx.inject(method="GET", path="/policy/api/v1/infra", status=200)  # not a fault: an answer is not an error


def test_clearing_faults_by_a_field_disarms_only_the_faults_that_match_it(nsx, ids):
    nsx.inject(realize_error=f"/infra/tier-1s/{ids}", message="stuck", count=1_000)
    nsx.inject(method="PATCH", path="/policy/api/v1/infra", status=503, count=1)
    nsx.clear_faults(realize_error=f"/infra/tier-1s/{ids}")
    (left,) = nsx.control("GET", "faults")["faults"]
    assert left["status"] == 503 and left["realize_error"] == ""
    with pytest.raises(RuntimeError, match="400"):
        nsx.clear_faults(colour="red")  # not a field of a fault: refused, nothing disarmed
    assert len(nsx.control("GET", "faults")["faults"]) == 1
    nsx.clear_faults()
    assert nsx.control("GET", "faults") == {"faults": []}


def test_calls_are_counted_per_method_and_path(nsx, ids):
    nsx.reset_stats()
    nsx.patch_infra(wrap("Tier1", id=f"{ids}t1", tier0_path=T0))
    nsx.patch_infra(wrap("Tier1", id=f"{ids}t1", tier0_path=T0))
    nsx.call("GET", f"/infra/tier-1s/{ids}t1")
    stats = nsx.control("GET", "stats")
    assert stats["calls"] == {INFRA: 2, f"GET /policy/api/v1/infra/tier-1s/{ids}t1": 1} and stats["total"] == 3


def test_every_api_call_needs_the_password(nsx):
    status, error = nsx.call("GET", "/infra/segments", auth=("admin", "wrong"))
    assert status == 401 and error["httpStatus"] == "UNAUTHORIZED"
    assert nsx.call("GET", "/api/v1/logical-switches", auth=("admin", "wrong"))[0] == 401
    assert nsx.call("GET", "/infra/segments")[0] == 200


def pg_props(drv: Driver, name: str) -> dict | None:
    """The NSX backing of the port group with this name (None: there is none)."""
    view = drv.content.viewManager.CreateContainerView(drv.datacenter(DC), [vim.dvs.DistributedVirtualPortgroup], True)
    try:
        for pg in view.view:
            if pg.name == name:
                cfg = pg.config
                return {"backing": cfg.backingType, "uuid": cfg.logicalSwitchUuid, "segment": cfg.segmentId}
    finally:
        view.Destroy()
    return None


def test_a_realized_segment_is_a_port_group_with_nsx_backing_and_deleting_it_removes_it(nsx, ids, vcsim):
    path = f"/infra/segments/{ids}seg"
    assert nsx.call("PATCH", path, {"display_name": f"{ids}net", "connectivity_path": T0,
                                    "transport_zone_path": TZ})[0] == 200  # fmt: skip
    nsx.wait_status(path)
    uid = nsx.call("GET", f"/infra/realized-state/realized-entities?intent_path={path}")[1]["results"][0][
        "realization_specific_identifier"
    ]
    with Driver(vcsim.config()) as drv:
        assert pg_props(drv, f"{ids}net") == {"backing": "nsx", "uuid": uid, "segment": path}
        assert nsx.call("PATCH", path, {"display_name": f"{ids}renamed"})[0] == 200
        nsx.wait_status(path)
        assert pg_props(drv, f"{ids}net") is None and pg_props(drv, f"{ids}renamed")["uuid"] == uid
        assert nsx.call("DELETE", path)[0] == 200
        assert pg_props(drv, f"{ids}renamed") is None


def test_a_segment_whose_port_group_cannot_be_made_is_in_error_with_the_reason(nsx, ids, vcsim):
    vcsim.inject("AddDVPortgroup_Task", "DuplicateName")
    try:
        path = f"/infra/segments/{ids}seg"
        assert nsx.call("PATCH", path, {"display_name": f"{ids}net", "connectivity_path": T0})[0] == 200
        nsx.wait_status(path, "ERROR")
    finally:
        vcsim.clear_faults()
    entity = nsx.call("GET", f"/infra/realized-state/realized-entities?intent_path={path}")[1]["results"][0]
    assert entity["state"] == "ERROR" and "could not be created in vCenter" in entity["alarms"][0]["message"]
    assert nsx.call("PATCH", path, {"description": "again"})[0] == 200  # a changed intent is realized again
    assert nsx.wait_status(path)["consolidated_status"]["consolidated_status"] == "SUCCESS"


@pytest.fixture
def vm(vcsim, ids):
    """A powered-off VM in the vCenter simulator, destroyed afterwards."""
    node = NodeIntent(name=f"{ids}vm", marker=f"m:{ids}vm", host=HOST_NAMES[0], cpus=1, memory_mb=512, power_on=False)
    with Driver(vcsim.config()) as drv:
        drv.vms.ensure(DC, "DC0_C0", "hpc-template", node)
        yield drv, node.name
        drv.vms.destroy(DC, node.name, node.marker)


def test_a_segment_with_a_vm_attached_cannot_be_deleted(nsx, ids, vm):
    drv, name = vm
    path = f"/infra/segments/{ids}seg"
    assert nsx.call("PATCH", path, {"display_name": f"{ids}net", "connectivity_path": T0})[0] == 200
    nsx.wait_status(path)
    key, switch = drv.portgroups.info(DC, f"{ids}net")
    nic = drv.devices.adapter(Adapter.VMXNET3, -100, key, switch)
    drv.wait(drv.vms.start_reconfigure(drv.snapshot(DC).vms[name][1], drv.devices.change_spec([nic]), name), "attach")
    status, error = nsx.call("DELETE", path)
    assert status == 400 and name in error["error_message"] and path in nsx.objects()
    status, error = nsx.patch_infra({"resource_type": "ChildSegment", "marked_for_delete": True,
                                     "Segment": {"resource_type": "Segment", "id": f"{ids}seg"}})  # fmt: skip
    assert status == 400 and name in error["error_message"]
    group = {"resource_type": "PathExpression", "paths": [path]}
    assert nsx.patch_infra(in_domain(wrap("Group", id=f"{ids}on-seg", expression=[group])))[0] == 200
    assert nsx.group_members(f"{ids}on-seg") == [name]
    nsx.delete(f"{DOMAIN}/groups/{ids}on-seg")
    drv.vms.destroy(DC, name, f"m:{name}")
    assert nsx.call("DELETE", path)[0] == 200


def test_vm_tags_decide_group_membership(nsx, ids, vm):
    _drv, name = vm
    status, listing = nsx.call("GET", f"{VMS}?display_name={name}")
    assert status == 200 and listing["result_count"] == 1
    sdk_valid(listing, "VirtualMachineListResult")
    external_id = listing["results"][0]["external_id"]
    either = {"resource_type": "ConjunctionOperator", "conjunction_operator": "OR"}
    by_name = {"resource_type": "Condition", "member_type": "VirtualMachine", "key": "Name", "operator": "EQUALS",
               "value": "nobody"}  # fmt: skip
    group = tag_group(f"{ids}g", "tenant", ids)
    group["Group"]["expression"] += [either, by_name]
    assert nsx.patch_infra(in_domain(group))[0] == 200
    assert nsx.group_members(f"{ids}g") == []
    tags = {"external_id": external_id, "tags": [{"scope": "tenant", "tag": ids}, {"scope": "role", "tag": "login"}]}
    assert nsx.call("POST", f"{VMS}?action=update_tags", tags)[0] == 204
    assert nsx.group_members(f"{ids}g") == [name]
    status, members = nsx.call("GET", f"{DOMAIN}/groups/{ids}g/members/virtual-machines")
    sdk_valid(members, "RealizedVirtualMachineListResult")
    listing = nsx.call("GET", f"{VMS}?display_name={name}")[1]
    assert listing["results"][0]["tags"] == tags["tags"]
    assert nsx.call("POST", f"{VMS}?action=update_tags", {"external_id": external_id, "tags": []})[0] == 204
    assert nsx.group_members(f"{ids}g") == []
    unknown = {"external_id": "no-such-vm", "tags": []}
    assert nsx.call("POST", f"{VMS}?action=update_tags", unknown)[0] == 404
    assert nsx.call("POST", f"{VMS}?action=update_tags", {"external_id": external_id, "tag": []})[0] == 400


def test_group_expressions_must_alternate_terms_and_conjunctions(nsx, ids):
    cond = {"resource_type": "Condition", "member_type": "VirtualMachine", "key": "Tag", "operator": "EQUALS",
            "value": "a|b"}  # fmt: skip
    status, error = nsx.patch_infra(in_domain(wrap("Group", id=f"{ids}g", expression=[cond, cond])))
    assert status == 400 and "ConjunctionOperator" in error["error_message"]


def test_the_fixed_inventory_is_there_and_cannot_be_deleted(nsx):
    objects = nsx.objects()
    for path in (DOMAIN, TZ, T0, "/infra/services/SSH",
                 "/infra/sites/default/enforcement-points/default/edge-clusters/edge-1"):  # fmt: skip
        assert path in objects
    assert nsx.call("GET", TZ)[1]["tz_type"] == "OVERLAY_BACKED"
    assert nsx.call("DELETE", "/infra/services/SSH")[0] == 400
    assert nsx.status(T0)[1]["consolidated_status"]["consolidated_status"] == "SUCCESS"
