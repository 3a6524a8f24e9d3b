package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/vmware/govmomi/simulator"
)

// delaySpec is the JSON form of the simulator's delay settings, in milliseconds.
// "api" keys are SOAP method names ("CloneVM_Task"; "*" is the base added to every call);
// "task" keys are the simulator's task names ("CloneVm", "ReconfigVm", "PowerOn", "CreateDVS",
// "ReconfigureDvs", "AddDVPortgroup", "ReconfigureDvPortgroup", "CustomizeVm", "Destroy") and set
// how long a task runs.
type delaySpec struct {
	API    map[string]int `json:"api"`
	Task   map[string]int `json:"task"`
	Jitter float64        `json:"jitter"`
}

// vcenterProfile approximates a loaded vCenter on a LAN, with task run times scaled down
// about tenfold so a 16-VM benchmark finishes in about a minute sequentially.
var vcenterProfile = delaySpec{
	API: map[string]int{
		"*":                           4,
		"Login":                       80,
		"RetrievePropertiesEx":        8,
		"QueryConfigTarget":           60,
		"CloneVM_Task":                40,
		"ReconfigVM_Task":             25,
		"PowerOnVM_Task":              25,
		"PowerOffVM_Task":             25,
		"Destroy_Task":                25,
		"CreateDVS_Task":              40,
		"ReconfigureDvs_Task":         30,
		"AddDVPortgroup_Task":         30,
		"ReconfigureDVPortgroup_Task": 30,
		"CustomizeVM_Task":            25,
	},
	Task: map[string]int{
		"CloneVm":                1500,
		"ReconfigVm":             400,
		"PowerOn":                700,
		"PowerOff":               400,
		"Destroy":                400,
		"CreateDVS":              800,
		"ReconfigureDvs":         600,
		"AddDVPortgroup":         500,
		"ReconfigureDvPortgroup": 300,
		"CustomizeVm":            200,
	},
}

func loadDelays(profile, path string) (delaySpec, error) {
	var spec delaySpec
	switch profile {
	case "none", "":
	case "vcenter":
		spec = vcenterProfile
	default:
		return spec, fmt.Errorf("unknown delay profile %q", profile)
	}
	if path == "" {
		return spec, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return spec, err
	}
	var custom delaySpec
	if err := json.Unmarshal(data, &custom); err != nil {
		return spec, fmt.Errorf("delays %s: %w", path, err)
	}
	return custom, nil
}

// applyDelays must run before the server starts: the simulator reads these maps unlocked.
func applyDelays(m *simulator.Model, spec delaySpec, handoff bool) {
	api := map[string]int{}
	for name, ms := range spec.API {
		if name == "*" {
			m.DelayConfig.Delay = ms
			continue
		}
		api[name] = ms
	}
	m.DelayConfig.MethodDelay = api
	m.DelayConfig.DelayJitter = spec.Jitter
	task := map[string]int{}
	for name, ms := range spec.Task {
		task[name] = ms
	}
	if !handoff {
		// Without the hand-off a task takes its entity lock only after its delay, so many
		// clones of one template run in parallel instead of one after another.
		task["LockHandoff"] = 0
	}
	simulator.TaskDelay.MethodDelay = task
	simulator.TaskDelay.DelayJitter = spec.Jitter
}
