package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"sync"

	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/types"
)

const controlPrefix = "/_enclave/"

// control serves the test-only endpoints: SOAP request counters and fault injection.
type control struct {
	svc     *simulator.Service
	pfs     []pfSpec
	devices deviceFixture

	mu     sync.Mutex
	counts map[string]int

	customizations *cloneCustomizations
}

func newControl(svc *simulator.Service, pfs []pfSpec, devices deviceFixture) *control {
	c := &control{svc: svc, pfs: pfs, devices: devices, counts: map[string]int{}, customizations: newCloneCustomizations()}
	svc.Context.Map.Handler = c.dispatch
	return c
}

// dispatch runs before every SOAP method: it counts the call, handles clone customizations
// (customize.go) and swaps in our handlers.
func (c *control) dispatch(ctx *simulator.Context, m *simulator.Method) (mo.Reference, types.BaseMethodFault) {
	c.mu.Lock()
	c.counts[m.Name]++
	c.mu.Unlock()
	if fault := c.customizations.dispatch(ctx, m); fault != nil {
		return nil, fault
	}
	if m.Name == "QueryConfigTarget" {
		if eb, ok := ctx.Map.Get(m.This).(*simulator.EnvironmentBrowser); ok {
			wrapped := &sriovBrowser{EnvironmentBrowser: eb, pfs: c.pfs, devices: c.devices}
			if ctx.Session != nil {
				// The simulator prefers a session's own objects over this hook's answer,
				// so the wrapper must also live in the caller's session registry.
				ctx.Session.Registry.Put(wrapped)
			}
			return wrapped, nil
		}
	}
	return nil, nil
}

func (c *control) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case controlPrefix + "stats":
		c.serveStats(w, r)
	case controlPrefix + "faults":
		c.serveFaults(w, r)
	case controlPrefix + "health":
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	default:
		http.NotFound(w, r)
	}
}

type statsReply struct {
	Total   int            `json:"total"`
	Methods map[string]int `json:"methods"`
}

// serveStats: GET reads the counters, POST reads and resets them.
func (c *control) serveStats(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	c.mu.Lock()
	reply := statsReply{Methods: c.counts}
	for _, n := range c.counts {
		reply.Total += n
	}
	if r.Method == http.MethodPost {
		c.counts = map[string]int{}
	} else {
		reply.Methods = copyCounts(c.counts)
	}
	c.mu.Unlock()
	writeJSON(w, http.StatusOK, reply)
}

func copyCounts(in map[string]int) map[string]int {
	out := make(map[string]int, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

// faultRequest is the body of POST /_enclave/faults.
type faultRequest struct {
	Method      string  `json:"method"`
	Fault       string  `json:"fault"`
	Count       int     `json:"count"`
	Object      string  `json:"object"`
	ObjectType  string  `json:"object_type"`
	Message     string  `json:"message"`
	DelayMS     int     `json:"delay_ms"`
	Probability float64 `json:"probability"`
}

func (c *control) serveFaults(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		c.listFaults(w)
	case http.MethodPost:
		c.addFault(w, r)
	case http.MethodDelete:
		c.svc.ClearFaultRules()
		writeJSON(w, http.StatusOK, map[string]int{"rules": 0})
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

func (c *control) addFault(w http.ResponseWriter, r *http.Request) {
	var req faultRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Method == "" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "need JSON with method"})
		return
	}
	fault, ok := namedFault(req.Fault)
	if !ok {
		writeJSON(w, http.StatusBadRequest, map[string]any{
			"error": fmt.Sprintf("unknown fault %q", req.Fault), "known": faultNames(),
		})
		return
	}
	rule := &simulator.FaultInjectionRule{
		MethodName:  req.Method,
		ObjectType:  orStar(req.ObjectType),
		ObjectName:  orStar(req.Object),
		Probability: req.Probability,
		FaultType:   simulator.FaultTypeCustom,
		Fault:       fault,
		Message:     req.Message,
		Delay:       req.DelayMS,
		MaxCount:    req.Count,
		Enabled:     true,
	}
	if rule.Probability == 0 {
		rule.Probability = 1.0
	}
	if rule.Message == "" {
		rule.Message = "injected " + req.Fault
	}
	c.svc.AddFaultRule(rule)
	writeJSON(w, http.StatusCreated, map[string]int{"rules": len(c.svc.GetFaultRules())})
}

func (c *control) listFaults(w http.ResponseWriter) {
	stats := c.svc.GetFaultStats()
	var out []map[string]any
	for i, rule := range c.svc.GetFaultRules() {
		out = append(out, map[string]any{
			"method": rule.MethodName, "object": rule.ObjectName, "max_count": rule.MaxCount,
			"fired": stats[fmt.Sprintf("rule_%d_count", i)],
		})
	}
	writeJSON(w, http.StatusOK, map[string]any{"rules": out})
}

func orStar(s string) string {
	if s == "" {
		return "*"
	}
	return s
}

func faultNames() []string {
	var names []string
	for name := range faultFactories {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
