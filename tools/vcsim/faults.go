package main

import "github.com/vmware/govmomi/vim25/types"

// placeholder references: faults with a required reference must never carry an empty
// one, since pyvmomi rejects an empty type attribute.
var (
	someTask = types.ManagedObjectReference{Type: "Task", Value: "task-injected"}
	someVM   = types.ManagedObjectReference{Type: "VirtualMachine", Value: "vm-injected"}
)

// faultFactories names the vSphere faults the control endpoint can inject.
var faultFactories = map[string]func() types.BaseMethodFault{
	"TaskInProgress":    func() types.BaseMethodFault { return &types.TaskInProgress{Task: someTask} },
	"HostCommunication": func() types.BaseMethodFault { return &types.HostCommunication{} },
	"HostNotConnected":  func() types.BaseMethodFault { return &types.HostNotConnected{} },
	"ConcurrentAccess":  func() types.BaseMethodFault { return &types.ConcurrentAccess{} },
	"Timedout":          func() types.BaseMethodFault { return &types.Timedout{} },
	"SystemError": func() types.BaseMethodFault {
		return &types.SystemError{Reason: "injected system error"}
	},
	"InvalidArgument": func() types.BaseMethodFault {
		return &types.InvalidArgument{InvalidProperty: "spec"}
	},
	"NotFound": func() types.BaseMethodFault { return &types.NotFound{} },
	"DuplicateName": func() types.BaseMethodFault {
		return &types.DuplicateName{Name: "injected", Object: someVM}
	},
	"InvalidState": func() types.BaseMethodFault { return &types.InvalidState{} },
	"InvalidPowerState": func() types.BaseMethodFault {
		return &types.InvalidPowerState{
			RequestedState: types.VirtualMachinePowerStatePoweredOff,
			ExistingState:  types.VirtualMachinePowerStatePoweredOn,
		}
	},
	"InvalidDeviceSpec": func() types.BaseMethodFault {
		return &types.InvalidDeviceSpec{InvalidVmConfig: types.InvalidVmConfig{Property: "deviceChange"}}
	},
	"NoPermission": func() types.BaseMethodFault {
		return &types.NoPermission{Object: &someVM, PrivilegeId: "VirtualMachine.Config.Settings"}
	},
	"NotSupported":               func() types.BaseMethodFault { return &types.NotSupported{} },
	"ResourceInUse":              func() types.BaseMethodFault { return &types.ResourceInUse{Name: "injected"} },
	"InsufficientResourcesFault": func() types.BaseMethodFault { return &types.InsufficientResourcesFault{} },
}

func namedFault(name string) (types.BaseMethodFault, bool) {
	f, ok := faultFactories[name]
	if !ok {
		return nil, false
	}
	return f(), true
}
