"""Simulator restarts, property-collector hygiene, the fallback read, module boundaries."""

import re
from pathlib import Path

import pytest

from tests.vsphere.conftest import HOST_NAMES, cluster_intent
from vsphere.errors import TransientError
from vsphere.reconcile.converge import converge, preview
from vsphere.vim.driver import Driver

PACKAGE = Path(__file__).resolve().parents[2] / "vsphere"


def test_a_restarted_simulator_is_a_transient_error_then_converge_recovers(own_vcsim):
    intent = cluster_intent("rs", 2, vlan=700)
    drv = Driver(own_vcsim.config()).connect()
    converge(drv, intent)
    own_vcsim.stop()
    with pytest.raises(TransientError) as down:
        drv.snapshot("DC0")
    assert down.value.fault == "Connection"
    own_vcsim.start()  # same port, all state lost
    with pytest.raises(TransientError):
        drv.snapshot("DC0")  # the old session is gone
    drv.close()
    with Driver(own_vcsim.config()) as fresh:
        assert preview(fresh, intent) != []
        converge(fresh, intent)
        assert preview(fresh, intent) == []


def test_an_unreachable_vcenter_is_transient(own_vcsim):
    own_vcsim.stop()
    with pytest.raises(TransientError):
        Driver(own_vcsim.config()).connect()


def test_filters_and_collectors_are_destroyed_even_when_waiting_fails(vcsim, driver, names):
    vcsim.inject("WaitForUpdatesEx", "SystemError")
    with pytest.raises(TransientError):
        driver.switches.ensure("DC0", names("dvs"), "dvs:w", HOST_NAMES, "vmnic2")
    vcsim.clear_faults()
    driver.switches.ensure("DC0", names("dvs2"), "dvs:w", HOST_NAMES, "vmnic2")
    stats = vcsim.stats()
    assert stats["CreateFilter"] == stats["DestroyPropertyFilter"]
    assert stats["CreatePropertyCollector"] == stats["DestroyPropertyCollector"]


def test_the_fallback_read_finishes_tasks_when_no_update_arrives(vcsim, names):
    # maxWaitSeconds=0 makes every wait return at once without updates: only the read remains.
    with Driver(vcsim.config(max_wait_seconds=0)) as drv:
        before = vcsim.stats().get("RetrievePropertiesEx", 0)
        converge(drv, cluster_intent(names("c"), 2, vlan=701))
        assert vcsim.stats()["RetrievePropertiesEx"] > before + 1


def test_only_the_driver_and_its_parts_in_vim_import_pyvmomi_and_nobody_uses_wait_for_task():
    importers = []
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text()
        if re.search(r"^\s*(from|import) (pyVmomi|pyVim)", text, re.MULTILINE):
            importers.append(path.relative_to(PACKAGE).as_posix())
        assert "WaitForTask" not in text, path
    assert sorted(importers) == [
        f"vim/{name}.py"
        for name in ("devices", "driver", "faults", "filters", "portgroups", "snapshot", "specs", "vms", "waiting")
    ]
