package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
)

// pfSpec is one SR-IOV physical function on a host.
// NumVFs is what the driver enabled (max_vfs for the port); MaxVFs is firmware NUM_OF_VFS.
type pfSpec struct {
	ID     string `json:"id"`
	Pnic   string `json:"pnic"`
	NumVFs int32  `json:"num_vfs"`
	MaxVFs int32  `json:"max_vfs"`
	Model  string `json:"model"`
	Link   string `json:"link"`
}

// defaultPFs mirrors the paper's ConnectX-5: max_vfs=0,0,8,7 and NUM_OF_VFS=16.
var defaultPFs = []pfSpec{
	{ID: "0000:3b:00.0", Pnic: "vmnic2", NumVFs: 8, MaxVFs: 16, Model: "ConnectX-5", Link: "infiniband"},
	{ID: "0000:3b:00.1", Pnic: "vmnic3", NumVFs: 7, MaxVFs: 16, Model: "ConnectX-5", Link: "infiniband"},
}

func loadPFs(path string) ([]pfSpec, error) {
	if path == "" {
		return defaultPFs, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var pfs []pfSpec
	if err := json.Unmarshal(data, &pfs); err != nil {
		return nil, fmt.Errorf("sriov %s: %w", path, err)
	}
	return pfs, nil
}

// installPFs adds the PFs to every host's PCI list, passthrough info and physical NICs,
// as an ESXi host with SR-IOV enabled in firmware and driver reports them.
func installPFs(reg *simulator.Registry, pfs []pfSpec) {
	for _, entity := range reg.All("HostSystem") {
		host := entity.(*simulator.HostSystem)
		devices := append([]types.HostPciDevice{}, host.Hardware.PciDevice...)
		pnics := append([]types.PhysicalNic{}, host.Config.Network.Pnic...)
		passthru := append([]types.BaseHostPciPassthruInfo{}, host.Config.PciPassthruInfo...)
		for i, pf := range pfs {
			devices = append(devices, pciDevice(pf, i))
			pnics = append(pnics, physicalNic(pf))
			passthru = append(passthru, &types.HostSriovInfo{
				HostPciPassthruInfo: types.HostPciPassthruInfo{
					Id: pf.ID, PassthruCapable: true,
				},
				SriovEnabled:                true,
				SriovCapable:                true,
				SriovActive:                 true,
				NumVirtualFunctionRequested: pf.NumVFs,
				NumVirtualFunction:          pf.NumVFs,
				MaxVirtualFunctionSupported: pf.MaxVFs,
			})
		}
		host.Hardware.PciDevice = devices
		host.Config.Network.Pnic = pnics
		host.Config.PciPassthruInfo = passthru
	}
}

func pciDevice(pf pfSpec, i int) types.HostPciDevice {
	return types.HostPciDevice{
		Id:           pf.ID,
		ClassId:      0x0207, // InfiniBand controller
		Bus:          0x3b,
		Function:     byte(i),
		VendorId:     0x15b3, // Mellanox
		DeviceId:     0x1017, // MT27800 (ConnectX-5)
		VendorName:   "Mellanox Technologies",
		DeviceName:   "MT27800 Family [" + pf.Model + "] (" + pf.Link + ")",
		SubVendorId:  0x15b3,
		SubDeviceId:  0x0008,
		ParentBridge: "0000:3a:00.0",
	}
}

func physicalNic(pf pfSpec) types.PhysicalNic {
	speed := &types.PhysicalNicLinkInfo{SpeedMb: 100000, Duplex: true}
	return types.PhysicalNic{
		Key:       "key-vim.host.PhysicalNic-" + pf.Pnic,
		Device:    pf.Pnic,
		Pci:       pf.ID,
		Driver:    "nmlx5_core",
		LinkSpeed: speed,
		Spec:      types.PhysicalNicSpec{LinkSpeed: speed},
	}
}

// sriovBrowser answers QueryConfigTarget with the hosts' SR-IOV PFs, which the stock
// simulator leaves out; all other methods fall through to the embedded browser.
type sriovBrowser struct {
	*simulator.EnvironmentBrowser
	pfs     []pfSpec
	devices deviceFixture
}

// QueryConfigTarget reimplements the stock method: the stock one also panics once a switch
// was destroyed, because the simulator leaves its uplink port group on the hosts.
func (b *sriovBrowser) QueryConfigTarget(ctx *simulator.Context, req *types.QueryConfigTarget) soap.HasFault {
	hosts := b.clusterHosts(ctx)
	if req.Host != nil {
		hosts = []types.ManagedObjectReference{*req.Host}
	}
	target := &types.ConfigTarget{SmcPresent: types.NewBool(false)}
	seen := map[types.ManagedObjectReference]bool{}
	for _, ref := range hosts {
		host, ok := ctx.Map.Get(ref).(*simulator.HostSystem)
		if !ok {
			continue
		}
		target.NumCpus += int32(host.Summary.Hardware.NumCpuPkgs)
		target.NumCpuCores += int32(host.Summary.Hardware.NumCpuCores)
		target.NumNumaNodes++
		addDatastores(ctx, target, host, seen)
		addNetworks(ctx, target, host, seen)
		for i, pf := range b.pfs {
			target.Sriov = append(target.Sriov, types.VirtualMachineSriovInfo{
				VirtualMachinePciPassthroughInfo: types.VirtualMachinePciPassthroughInfo{
					VirtualMachineTargetInfo: types.VirtualMachineTargetInfo{Name: pf.ID},
					PciDevice:                pciDevice(pf, i),
					SystemId:                 host.Summary.Hardware.Uuid,
				},
				VirtualFunction: false,
				Pnic:            pf.Pnic,
			})
		}
		addDeviceTargets(target, host, b.devices) // devices.go
	}
	return &methods.QueryConfigTargetBody{Res: &types.QueryConfigTargetResponse{Returnval: target}}
}

func addDatastores(ctx *simulator.Context, target *types.ConfigTarget, host *simulator.HostSystem, seen map[types.ManagedObjectReference]bool) {
	for _, ref := range host.Datastore {
		ds, ok := ctx.Map.Get(ref).(*simulator.Datastore)
		if !ok || seen[ref] {
			continue
		}
		seen[ref] = true
		target.Datastore = append(target.Datastore, types.VirtualMachineDatastoreInfo{
			VirtualMachineTargetInfo: types.VirtualMachineTargetInfo{Name: ds.Name},
			Datastore:                ds.Summary,
			Capability:               ds.Capability,
			Mode:                     string(types.HostMountModeReadWrite),
			VStorageSupport:          string(types.FileSystemMountInfoVStorageSupportStatusVStorageUnsupported),
		})
	}
}

// addNetworks lists port groups whose switch still exists (dangling ones are skipped).
func addNetworks(ctx *simulator.Context, target *types.ConfigTarget, host *simulator.HostSystem, seen map[types.ManagedObjectReference]bool) {
	for _, ref := range host.Network {
		if seen[ref] {
			continue
		}
		seen[ref] = true
		pg, ok := ctx.Map.Get(ref).(*simulator.DistributedVirtualPortgroup)
		if !ok || pg.Config.DistributedVirtualSwitch == nil {
			continue
		}
		dvs, ok := ctx.Map.Get(*pg.Config.DistributedVirtualSwitch).(*simulator.DistributedVirtualSwitch)
		if !ok {
			continue
		}
		target.DistributedVirtualPortgroup = append(target.DistributedVirtualPortgroup, types.DistributedVirtualPortgroupInfo{
			SwitchName:                  dvs.Name,
			SwitchUuid:                  dvs.Uuid,
			PortgroupName:               pg.Name,
			PortgroupKey:                pg.Key,
			PortgroupType:               pg.Config.Type,
			Portgroup:                   pg.Self,
			NetworkReservationSupported: types.NewBool(false),
		})
	}
}

func (b *sriovBrowser) clusterHosts(ctx *simulator.Context) []types.ManagedObjectReference {
	for _, entity := range ctx.Map.All("ClusterComputeResource") {
		cluster := entity.(*simulator.ClusterComputeResource)
		if cluster.EnvironmentBrowser != nil && *cluster.EnvironmentBrowser == b.Self {
			return cluster.Host
		}
	}
	return nil
}
