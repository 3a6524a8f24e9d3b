"""A VF's InfiniBand port GUID is set through its SR-IOV adapter's MAC: the pure rule and the planner's use of it."""

from dataclasses import replace

from tests.vsphere.conftest import PF0, cluster_intent
from vsphere.plan import vf_mac
from vsphere.plan.diff import ChangeKind, _sriov_changes, plan
from vsphere.plan.specs import Observed, ObservedNic, ObservedVM, PowerState


def test_the_guid_is_the_mac_with_fffe_inserted_as_the_octo_guide_shows():
    assert vf_mac.guid_for_mac("00:50:56:B3:9E:C1") == "0x005056fffeb39ec1"
    assert vf_mac.mac_for_guid("0x005056fffeb39ec1") == "00:50:56:b3:9e:c1"


def test_a_guid_no_unicast_mac_can_carry_has_no_mac():
    assert vf_mac.mac_for_guid("0x0002c90300a00000") == ""  # no ff:fe in its middle
    assert vf_mac.mac_for_guid("0x015056fffe000000") == ""  # a multicast first octet
    assert vf_mac.mac_for_guid(None) == "" and vf_mac.guid_for_mac("00:50:56:b3:9e") == ""


def test_a_range_must_start_at_a_mac_form_and_stay_in_one_prefix():
    assert vf_mac.range_problem(0x005056FFFE000000, 4096) == ""
    assert "0xXXXXXXfffeYYYYYY" in vf_mac.range_problem(0x0002C90300A00000, 16)
    assert "one MAC prefix" in vf_mac.range_problem(0x005056FFFEFFFF00, 4096)
    assert vf_mac.range_problem(0x005056FFFEFFFF00, 256) == ""


def _vm(node, macs) -> ObservedVM:
    """The node's VM as the driver observes it: one VF on PF0 per MAC, on the tenant's port group."""
    nics = tuple(ObservedNic(key=4000 + i, pf=PF0, portgroup_key="pg-1", switch_uuid="u", mac=mac)
                 for i, mac in enumerate(macs))  # fmt: skip
    return ObservedVM(node.name, "vm-1", node.marker, node.host, node.cpus, node.memory_mb, True, True,
                      PowerState.ON, nics)  # fmt: skip


def _node(mac: str):
    return replace(cluster_intent("m", 1, vlan=10).nodes[0], sriov_macs=(mac,))


def test_a_new_vm_gets_its_vf_with_the_mac_of_its_port_guid():
    intent = cluster_intent("m", 1, vlan=10)
    intent = replace(intent, nodes=(_node("00:50:56:a0:00:01"),))
    adds = [c for c in plan(intent, Observed()) if c.kind == ChangeKind.ADD_SRIOV_NIC]
    assert [c.data for c in adds] == [{"pf": PF0, "mac": "00:50:56:a0:00:01"}]
    assert "InfiniBand port GUID 0x005056fffea00001" in adds[0].detail


def test_a_vf_with_its_mac_is_kept():
    node = _node("00:50:56:a0:00:01")
    assert _sriov_changes(node, _vm(node, ["00:50:56:a0:00:01"]), "pg-1") == []


def test_a_vf_whose_mac_was_changed_out_of_band_is_replaced_by_one_with_the_right_mac():
    node = _node("00:50:56:a0:00:01")
    changes = _sriov_changes(node, _vm(node, ["00:50:56:12:34:56"]), "pg-1")
    assert [(c.kind, c.data) for c in changes] == [
        (ChangeKind.REMOVE_SRIOV_NIC, {"key": 4000}),
        (ChangeKind.ADD_SRIOV_NIC, {"pf": PF0, "mac": "00:50:56:a0:00:01"}),
    ]


def test_a_vf_without_a_guid_to_carry_keeps_whatever_mac_vsphere_gave_it():
    node = _node("")
    assert _sriov_changes(node, _vm(node, ["00:50:56:12:34:56"]), "pg-1") == []
