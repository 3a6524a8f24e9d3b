"""Discovery of GPUs, vGPU profiles, passthrough NICs, DPUs and PVRDMA/ENS host features from the simulator."""

import pytest

from tests.vsphere.sites import sim_vcenter
from vsphere.models import DPU, DeviceAssignment, HostFeatures, PCIDevice, VGPUProfile
from vsphere.plan.capabilities import site_offers
from vsphere.reconcile import discovery

pytestmark = pytest.mark.django_db


def test_discovery_reads_every_device_and_feature_the_simulator_reports(vcsim):
    vcenter = sim_vcenter(vcsim)
    summary = discovery.discover(vcenter)
    devices = {(d.host.name, d.pci_id): d for d in PCIDevice.objects.select_related("host")}
    shared = devices[("DC0_C0_H0", "0000:af:00.0")]
    assert (shared.kind, shared.mode, shared.memory_gib, shared.device_vendor_id) == ("gpu", "vgpu", 40, 0x20F110DE)
    whole = devices[("DC0_C0_H1", "0000:b0:00.0")]
    assert (whole.kind, whole.mode, whole.device_name) == ("gpu", "passthrough", "NVIDIA A100-PCIE-40GB")
    assert whole.system_id, "DirectPath backing names the host's system id"
    nic = devices[("DC0_C0_H2", "0000:d8:00.0")]
    assert (nic.kind, nic.mode, nic.vendor_id, nic.device_id) == ("network", "passthrough", 0x15B3, 0x101D)
    assert len(devices) == 8, "SR-IOV PFs stay PFs; the DPU's port is an uplink, not a passthrough device"
    profiles = {p.name: p.per_gpu for p in VGPUProfile.objects.filter(vcenter=vcenter)}
    assert profiles == {"grid_a100-4c": 10, "grid_a100-5c": 8, "grid_a100-8c": 5, "grid_a100-10c": 4,
                        "grid_a100-20c": 2, "grid_a100-40c": 1}  # fmt: skip
    features = {f.host.name: f for f in HostFeatures.objects.select_related("host")}
    assert features["DC0_C0_H0"].pvrdma_ready and features["DC0_C0_H1"].pvrdma_ready
    assert features["DC0_C0_H2"].pvrdma_problems() == ["the pvrdma firewall rule is disabled"]
    assert features["DC0_C0_H3"].pvrdma_problems()[0].startswith("no VMkernel adapter is tagged for PVRDMA")
    assert [h for h, f in sorted(features.items()) if f.ens] == ["DC0_C0_H2", "DC0_C0_H3"]
    assert [h for h, f in sorted(features.items()) if f.network_offload] == ["DC0_C0_H3"]
    assert list(DPU.objects.values_list("host__name", "dpu_id", "pnic")) == [("DC0_C0_H3", "dpu-0", "vmnic6")]
    assert summary["device_notes"] == []
    offers = site_offers(vcenter)
    assert all(
        offers.get(f, v).available
        for f, v in [
            ("interconnect", "pvrdma"),
            ("interconnect", "directpath"),
            ("data_path", "enhanced"),
            ("data_path", "dpu"),
            ("gpu_mode", "vgpu"),
            ("gpu_mode", "passthrough"),
        ]
    )


def test_rediscovery_keeps_a_held_device_and_says_so(vcsim, make_user):
    from tenants import services as tenant_services
    from tests.vsphere.sites import gpu_cluster

    vcenter = sim_vcenter(vcsim)
    discovery.discover(vcenter)
    owner = make_user("pi")
    tenant = tenant_services.create_tenant("lab", "Lab", owner=owner)
    cluster = gpu_cluster(tenant, owner, submit=False)
    device = PCIDevice.objects.get(host__name="DC0_C0_H1", pci_id="0000:af:00.0")
    DeviceAssignment.objects.create(device=device, slot=0, cluster=cluster, node_name="lab-ml-w01")
    PCIDevice.objects.filter(pk=device.pk).update(pci_id="0000:ff:00.0")  # as if vCenter stopped reporting it
    summary = discovery.discover(vcenter)
    assert summary["device_notes"] == ["DC0_C0_H1 0000:ff:00.0: no longer reported by vCenter but held by a cluster"]
    assert PCIDevice.objects.filter(pk=device.pk).exists()


def test_every_demo_catalog_item_can_be_realized_on_the_simulators_inventory(vcsim, make_user):
    from catalog import demo
    from catalog.services import site_view

    discovery.discover(sim_vcenter(vcsim))
    admin = make_user("admin", staff=True)
    demo.seed(admin)
    from catalog.models import CatalogItem

    for item in CatalogItem.objects.select_related("current"):
        assert site_view(item.current)["refusals"] == [], item.slug
