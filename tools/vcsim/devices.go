package main

// Device fixtures beyond SR-IOV: GPUs (whole, for DirectPath I/O, or shared for NVIDIA vGPU with
// their profiles), other passthrough-capable PCI devices, PVRDMA host prerequisites, DPUs and the
// enhanced data path (ENS) on the site's switch. The stock simulator knows none of these; they are
// reported where real vSphere reports them:
//   - hardware.pciDevice and config.pciPassthruInfo (every device);
//   - QueryConfigTarget: pciPassthrough and dynamicPassthrough (passthrough-enabled devices),
//     sharedGpuPassthroughTypes, vgpuDeviceInfo and vgpuProfileInfo (shared GPUs);
//   - the host's HostGraphicsManager.graphicsInfo (graphicsType "direct" or "sharedDirect", vgpuMode);
//   - the advanced option Net.PVRDMAVmknic and the "pvrdma" firewall ruleset;
//   - config.network.pnic[].dpuId for a DPU-backed uplink;
//   - config.network.proxySwitch[]: ensEnabled / networkOffloadingEnabled for the named switch.
//     Strict stand-in: on real vSphere NSX prepares a host's proxy switch for ENS or offload once
//     the host joined the switch; here the fixture declares it up front for the switch's name.
// Like the simulator, nothing here enforces what real vSphere refuses (a vGPU profile mix, a PVRDMA
// adapter without the prerequisites, passthrough on a running VM): Enclave's preflight must.

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/types"
)

// gpuSpec is one physical GPU: "direct" (passthrough-enabled, DirectPath I/O) or "sharedDirect" (NVIDIA vGPU).
type gpuSpec struct {
	ID        string `json:"id"`
	Model     string `json:"model"`
	DeviceID  int32  `json:"device_id"`
	MemoryGiB int64  `json:"memory_gib"`
	Mode      string `json:"mode"`
}

// pciSpec is a passthrough-enabled device that is not a GPU (a whole NIC for DirectPath I/O).
type pciSpec struct {
	ID       string `json:"id"`
	Vendor   string `json:"vendor"`
	Name     string `json:"name"`
	VendorID int32  `json:"vendor_id"`
	DeviceID int32  `json:"device_id"`
	ClassID  int32  `json:"class_id"`
}

// pvrdmaSpec is a host's PVRDMA preparation: the tagged VMkernel adapter and the firewall ruleset.
type pvrdmaSpec struct {
	Vmknic   string `json:"vmknic"`
	Firewall bool   `json:"firewall"`
}

// dpuSpec is a DPU whose port backs one of the host's uplinks.
type dpuSpec struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Pnic    string `json:"pnic"`
	PCI     string `json:"pci"`
	Offload bool   `json:"offload"`
}

type hostDevices struct {
	GPUs        []gpuSpec   `json:"gpus"`
	Passthrough []pciSpec   `json:"passthrough"`
	PVRDMA      *pvrdmaSpec `json:"pvrdma"`
	DPU         *dpuSpec    `json:"dpu"`
	ENS         bool        `json:"ens"`
}

// profileSpec is a vGPU profile of a GPU model; a GPU holds memory_gib / fb_gib of them (same size).
type profileSpec struct {
	Name     string `json:"name"`
	DeviceID int32  `json:"device_id"`
	FbGiB    int64  `json:"fb_gib"`
	Class    string `json:"class"`
}

type deviceFixture struct {
	APIVersion string                 `json:"api_version"`
	Switch     string                 `json:"switch"`
	Profiles   []profileSpec          `json:"profiles"`
	Hosts      map[string]hostDevices `json:"hosts"`
}

const (
	nvidia       = 0x10de
	a100DeviceID = 0x20f1 // A100-PCIE-40GB
	a100Model    = "NVIDIA A100-PCIE-40GB"
)

func a100(id, mode string) gpuSpec {
	return gpuSpec{ID: id, Model: a100Model, DeviceID: a100DeviceID, MemoryGiB: 40, Mode: mode}
}

func a100Profiles() []profileSpec {
	var out []profileSpec
	for _, fb := range []int64{4, 5, 8, 10, 20, 40} {
		out = append(out, profileSpec{Name: fmt.Sprintf("grid_a100-%dc", fb), DeviceID: a100DeviceID, FbGiB: fb, Class: "compute"})
	}
	return out
}

// defaultDevices: H0 two vGPU A100s, H1 two passthrough A100s and two whole ConnectX-6 Dx ports
// (a GPU server with RoCE), both PVRDMA-ready; H2 two whole ConnectX-6 Dx ports for DirectPath I/O,
// ENS, PVRDMA tagged but firewall closed; H3 a DPU with offload and ENS, no PVRDMA.
func defaultDevices() deviceFixture {
	cx6 := func(id string) pciSpec {
		return pciSpec{ID: id, Vendor: "Mellanox Technologies", Name: "MT2892 Family [ConnectX-6 Dx]",
			VendorID: 0x15b3, DeviceID: 0x101d, ClassID: 0x0200}
	}
	return deviceFixture{
		APIVersion: "8.0.3.0",
		Switch:     "enclave-sriov",
		Profiles:   a100Profiles(),
		Hosts: map[string]hostDevices{
			"DC0_C0_H0": {GPUs: []gpuSpec{a100("0000:af:00.0", "sharedDirect"), a100("0000:b0:00.0", "sharedDirect")},
				PVRDMA: &pvrdmaSpec{Vmknic: "vmk0", Firewall: true}},
			"DC0_C0_H1": {GPUs: []gpuSpec{a100("0000:af:00.0", "direct"), a100("0000:b0:00.0", "direct")},
				Passthrough: []pciSpec{cx6("0000:d8:00.0"), cx6("0000:d8:00.1")},
				PVRDMA:      &pvrdmaSpec{Vmknic: "vmk0", Firewall: true}},
			"DC0_C0_H2": {Passthrough: []pciSpec{cx6("0000:d8:00.0"), cx6("0000:d8:00.1")}, ENS: true,
				PVRDMA: &pvrdmaSpec{Vmknic: "vmk0", Firewall: false}},
			"DC0_C0_H3": {DPU: &dpuSpec{ID: "dpu-0", Model: "AMD Pensando DSC2-100", Pnic: "vmnic6", PCI: "0000:e3:00.0", Offload: true},
				ENS: true},
		},
	}
}

func loadDevices(path string) (deviceFixture, error) {
	if path == "" {
		return defaultDevices(), nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return deviceFixture{}, err
	}
	var f deviceFixture
	if err := json.Unmarshal(data, &f); err != nil {
		return deviceFixture{}, fmt.Errorf("devices %s: %w", path, err)
	}
	if f.APIVersion == "" {
		f.APIVersion = "8.0.3.0"
	}
	return f, nil
}

// graphicsManager is the host's HostGraphicsManager (absent from the stock simulator).
type graphicsManager struct {
	mo.HostGraphicsManager
}

// installDevices puts the fixture on the named hosts (after installPFs).
func installDevices(reg *simulator.Registry, f deviceFixture) {
	for _, entity := range reg.All("HostSystem") {
		host := entity.(*simulator.HostSystem)
		spec, ok := f.Hosts[host.Name]
		if !ok {
			continue
		}
		installPCI(host, spec)
		installGraphics(reg, host, spec)
		installPVRDMA(reg, host, spec.PVRDMA)
		installDPU(host, spec.DPU)
		installProxySwitch(host, spec, f.Switch)
	}
}

func installPCI(host *simulator.HostSystem, spec hostDevices) {
	for i, gpu := range spec.GPUs {
		host.Hardware.PciDevice = append(host.Hardware.PciDevice, gpuDevice(gpu, i))
		enabled := gpu.Mode == "direct"
		host.Config.PciPassthruInfo = append(host.Config.PciPassthruInfo, &types.HostPciPassthruInfo{
			Id: gpu.ID, PassthruCapable: true, PassthruEnabled: enabled, PassthruActive: enabled,
		})
	}
	for i, dev := range spec.Passthrough {
		host.Hardware.PciDevice = append(host.Hardware.PciDevice, pciDevice2(dev, i))
		host.Config.PciPassthruInfo = append(host.Config.PciPassthruInfo, &types.HostPciPassthruInfo{
			Id: dev.ID, PassthruCapable: true, PassthruEnabled: true, PassthruActive: true,
		})
	}
}

func gpuDevice(gpu gpuSpec, i int) types.HostPciDevice {
	return types.HostPciDevice{
		Id: gpu.ID, ClassId: 0x0302, Bus: 0xaf + byte(i), VendorId: nvidia, DeviceId: int16(gpu.DeviceID),
		VendorName: "NVIDIA Corporation", DeviceName: gpu.Model, SubVendorId: nvidia, SubDeviceId: 0x145f,
		ParentBridge: "0000:ae:00.0",
	}
}

func pciDevice2(dev pciSpec, i int) types.HostPciDevice {
	return types.HostPciDevice{
		Id: dev.ID, ClassId: int16(dev.ClassID), Bus: 0xd8, Function: byte(i), VendorId: int16(dev.VendorID),
		DeviceId: int16(dev.DeviceID), VendorName: dev.Vendor, DeviceName: dev.Name, SubVendorId: int16(dev.VendorID),
		ParentBridge: "0000:d7:00.0",
	}
}

func installGraphics(reg *simulator.Registry, host *simulator.HostSystem, spec hostDevices) {
	gm := &graphicsManager{}
	gm.Self = types.ManagedObjectReference{Type: "HostGraphicsManager", Value: "graphicsManager-" + host.Self.Value}
	for _, gpu := range spec.GPUs {
		info := types.HostGraphicsInfo{
			DeviceName: gpu.Model, VendorName: "NVIDIA Corporation", PciId: gpu.ID, GraphicsType: gpu.Mode,
			MemorySizeInKB: gpu.MemoryGiB * 1024 * 1024,
		}
		if gpu.Mode == "sharedDirect" {
			info.VgpuMode = "sameSize" // time-sliced: one profile size per GPU at a time
		}
		gm.GraphicsInfo = append(gm.GraphicsInfo, info)
	}
	ref := reg.Put(gm).Reference()
	host.ConfigManager.GraphicsManager = &ref
}

// installPVRDMA tags a VMkernel adapter (Net.PVRDMAVmknic) and opens the pvrdma ruleset if asked;
// every host gets its own firewall copy so one host's ruleset never changes another's.
func installPVRDMA(reg *simulator.Registry, host *simulator.HostSystem, spec *pvrdmaSpec) {
	firewall := *host.Config.Firewall
	firewall.Ruleset = append([]types.HostFirewallRuleset{}, firewall.Ruleset...)
	host.Config.Firewall = &firewall
	if fw, ok := reg.Get(*host.ConfigManager.FirewallSystem).(*simulator.HostFirewallSystem); ok {
		fw.FirewallInfo = &firewall
	}
	if spec == nil {
		return
	}
	if spec.Firewall {
		simulator.EnableRuleset(&firewall, "pvrdma")
	}
	if om, ok := reg.Get(*host.ConfigManager.AdvancedOption).(*simulator.OptionManager); ok {
		value := []types.BaseOptionValue{&types.OptionValue{Key: "Net.PVRDMAVmknic", Value: spec.Vmknic}}
		om.UpdateOptions(&types.UpdateOptions{ChangedValue: value})
	}
}

func installDPU(host *simulator.HostSystem, dpu *dpuSpec) {
	if dpu == nil {
		return
	}
	speed := &types.PhysicalNicLinkInfo{SpeedMb: 100000, Duplex: true}
	host.Config.Network.Pnic = append(host.Config.Network.Pnic, types.PhysicalNic{
		Key: "key-vim.host.PhysicalNic-" + dpu.Pnic, Device: dpu.Pnic, Pci: dpu.PCI, Driver: "ionic_en",
		LinkSpeed: speed, Spec: types.PhysicalNicSpec{LinkSpeed: speed}, DpuId: dpu.ID,
		EnhancedNetworkingStackSupported: types.NewBool(true),
	})
	host.Hardware.PciDevice = append(host.Hardware.PciDevice, types.HostPciDevice{
		Id: dpu.PCI, ClassId: 0x0200, Bus: 0xe3, VendorId: 0x1dd8, DeviceId: 0x1002,
		VendorName: "Pensando Systems", DeviceName: dpu.Model, ParentBridge: "0000:e2:00.0",
	})
}

func installProxySwitch(host *simulator.HostSystem, spec hostDevices, name string) {
	offload := spec.DPU != nil && spec.DPU.Offload
	if !spec.ENS && !offload {
		return
	}
	host.Config.Network.ProxySwitch = append(host.Config.Network.ProxySwitch, types.HostProxySwitch{
		DvsName: name, Key: "proxy-" + name, NumPorts: 512, NumPortsAvailable: 512, Mtu: 9000,
		EnsEnabled: types.NewBool(spec.ENS), NetworkOffloadingEnabled: types.NewBool(offload),
	})
}

// addDeviceTargets completes QueryConfigTarget for one host with its passthrough devices and vGPU types.
func addDeviceTargets(target *types.ConfigTarget, host *simulator.HostSystem, f deviceFixture) {
	spec := f.Hosts[host.Name]
	system := host.Summary.Hardware.Uuid
	for i, gpu := range spec.GPUs {
		if gpu.Mode == "direct" {
			addPassthrough(target, gpuDevice(gpu, i), system)
		}
	}
	for i, dev := range spec.Passthrough {
		addPassthrough(target, pciDevice2(dev, i), system)
	}
	addVgpuTypes(target, spec, f.Profiles)
}

func addPassthrough(target *types.ConfigTarget, dev types.HostPciDevice, system string) {
	target.PciPassthrough = append(target.PciPassthrough, &types.VirtualMachinePciPassthroughInfo{
		VirtualMachineTargetInfo: types.VirtualMachineTargetInfo{Name: dev.Id},
		PciDevice:                dev,
		SystemId:                 system,
	})
	target.DynamicPassthrough = append(target.DynamicPassthrough, types.VirtualMachineDynamicPassthroughInfo{
		VirtualMachineTargetInfo: types.VirtualMachineTargetInfo{Name: dev.Id},
		VendorName:               dev.VendorName, DeviceName: dev.DeviceName,
		VendorId: int32(uint16(dev.VendorId)), DeviceId: int32(uint16(dev.DeviceId)),
	})
}

// addVgpuTypes lists, once per GPU model of the host's shared GPUs, the device and its profiles.
func addVgpuTypes(target *types.ConfigTarget, spec hostDevices, profiles []profileSpec) {
	models := map[int32]gpuSpec{}
	for _, gpu := range spec.GPUs {
		if gpu.Mode == "sharedDirect" {
			models[gpu.DeviceID] = gpu
		}
	}
	ids := make([]int, 0, len(models))
	for id := range models {
		ids = append(ids, int(id))
	}
	sort.Ints(ids)
	for _, id := range ids {
		gpu := models[int32(id)]
		deviceVendor := int64(gpu.DeviceID)<<16 | nvidia
		target.VgpuDeviceInfo = append(target.VgpuDeviceInfo, types.VirtualMachineVgpuDeviceInfo{
			VirtualMachineTargetInfo: types.VirtualMachineTargetInfo{Name: gpu.Model},
			DeviceName:               gpu.Model, DeviceVendorId: deviceVendor, MaxFbSizeInGib: gpu.MemoryGiB,
			TimeSlicedCapable: true, MigCapable: true, ComputeProfileCapable: true,
		})
		for _, p := range profiles {
			if p.DeviceID != gpu.DeviceID {
				continue
			}
			target.SharedGpuPassthroughTypes = append(target.SharedGpuPassthroughTypes,
				types.VirtualMachinePciSharedGpuPassthroughInfo{
					VirtualMachineTargetInfo: types.VirtualMachineTargetInfo{Name: p.Name}, Vgpu: p.Name,
				})
			target.VgpuProfileInfo = append(target.VgpuProfileInfo, types.VirtualMachineVgpuProfileInfo{
				VirtualMachineTargetInfo: types.VirtualMachineTargetInfo{Name: p.Name},
				ProfileName:              p.Name, DeviceVendorId: deviceVendor, FbSizeInGib: p.FbGiB,
				ProfileSharing: "timeSliced", ProfileClass: p.Class,
			})
		}
	}
}
