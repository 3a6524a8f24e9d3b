package main

import (
	"sync"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/types"
)

// cloneCustomizations gives CloneVM_Task's spec.customization the effect it has on vCenter: the
// stock simulator ignores it, but applies a CustomizeVM_Task spec at the next power-on. The spec
// is kept by the clone's name and handed to CustomizeVM_Task just before that VM's first
// power-on, so the stock code sets guest.hostName, guest.ipAddress and guest.net. Deviation:
// vCenter checks the NIC count against the spec at clone time; here that NicSettingMismatch
// fault comes back from the power-on.
type cloneCustomizations struct {
	mu      sync.Mutex
	pending map[string]*types.CustomizationSpec // clone name -> spec
}

func newCloneCustomizations() *cloneCustomizations {
	return &cloneCustomizations{pending: map[string]*types.CustomizationSpec{}}
}

// dispatch runs before the SOAP method: it keeps, applies or forgets a clone's customization.
func (c *cloneCustomizations) dispatch(ctx *simulator.Context, m *simulator.Method) types.BaseMethodFault {
	switch m.Name {
	case "CloneVM_Task":
		req, ok := m.Body.(*types.CloneVM_Task)
		if ok && req.Spec.Customization != nil && !nameTaken(ctx, req) {
			c.mu.Lock()
			c.pending[req.Name] = req.Spec.Customization
			c.mu.Unlock()
		}
	case "PowerOnVM_Task":
		if vm, ok := ctx.Map.Get(m.This).(*simulator.VirtualMachine); ok {
			return c.apply(ctx, vm)
		}
	case "Destroy_Task":
		if vm, ok := ctx.Map.Get(m.This).(*simulator.VirtualMachine); ok {
			c.take(vm.Name)
		}
	}
	return nil
}

func (c *cloneCustomizations) take(name string) *types.CustomizationSpec {
	c.mu.Lock()
	defer c.mu.Unlock()
	spec := c.pending[name]
	delete(c.pending, name)
	return spec
}

// apply runs the stock CustomizeVM_Task for a VM with a kept spec and waits for it.
func (c *cloneCustomizations) apply(ctx *simulator.Context, vm *simulator.VirtualMachine) types.BaseMethodFault {
	spec := c.take(vm.Name)
	if spec == nil {
		return nil
	}
	res := vm.CustomizeVMTask(ctx, &types.CustomizeVM_Task{This: vm.Self, Spec: *spec})
	task := ctx.Map.Get(res.(*methods.CustomizeVM_TaskBody).Res.Returnval).(*simulator.Task)
	task.Wait()
	if task.Info.Error != nil {
		return task.Info.Error.Fault
	}
	return nil
}

// nameTaken: a clone onto an existing name fails with DuplicateName, so its spec is not kept.
func nameTaken(ctx *simulator.Context, req *types.CloneVM_Task) bool {
	folder, ok := ctx.Map.Get(req.Folder).(mo.Entity)
	if !ok {
		return false
	}
	children := folderChildren(folder)
	return ctx.Map.FindByName(req.Name, children) != nil
}

func folderChildren(entity mo.Entity) []types.ManagedObjectReference {
	if f, ok := entity.(*simulator.Folder); ok {
		return f.ChildEntity
	}
	return nil
}
