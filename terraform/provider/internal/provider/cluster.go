package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// clusterResource: a virtual cluster request; submitted on create, resized and extended in place.
type clusterResource struct{ base }

func newClusterResource() resource.Resource { return &clusterResource{} }

type clusterModel struct {
	ID                 types.String `tfsdk:"id"`
	Tenant             types.Int64  `tfsdk:"tenant_id"`
	Name               types.String `tfsdk:"name"`
	WorkloadClass      types.String `tfsdk:"workload_class"`
	WorkerCount        types.Int64  `tfsdk:"worker_count"`
	VcpusPerNode       types.Int64  `tfsdk:"vcpus_per_node"`
	MemoryGBPerNode    types.Int64  `tfsdk:"memory_gb_per_node"`
	LoginNode          types.Bool   `tfsdk:"login_node"`
	Interconnect       types.String `tfsdk:"interconnect"`
	NetworkMode        types.String `tfsdk:"network_mode"`
	DataPath           types.String `tfsdk:"data_path"`
	NicType            types.String `tfsdk:"nic_type"`
	GpuMode            types.String `tfsdk:"gpu_mode"`
	GpusPerWorker      types.Int64  `tfsdk:"gpus_per_worker"`
	VgpuProfile        types.String `tfsdk:"vgpu_profile"`
	LeaseEnd           types.String `tfsdk:"lease_end"`
	Justification      types.String `tfsdk:"justification"`
	LeaseJustification types.String `tfsdk:"lease_justification"`
	Submit             types.Bool   `tfsdk:"submit"`
	WaitFor            types.String `tfsdk:"wait_for"`
	ReadyTimeout       types.String `tfsdk:"ready_timeout"`
	DeleteTimeout      types.String `tfsdk:"delete_timeout"`
	State              types.String `tfsdk:"state"`
	StatusMessage      types.String `tfsdk:"status_message"`
	RejectionReason    types.String `tfsdk:"rejection_reason"`
	Generation         types.Int64  `tfsdk:"generation"`
	ObservedGeneration types.Int64  `tfsdk:"observed_generation"`
	RequestedBy        types.String `tfsdk:"requested_by"`
	VMCount            types.Int64  `tfsdk:"vm_count"`
	VFCount            types.Int64  `tfsdk:"vf_count"`
	SiteKind           types.String `tfsdk:"site_kind"`
	Segment            types.Int64  `tfsdk:"segment_id"`
}

type clusterJSON struct {
	ID                 int64  `json:"id"`
	Tenant             int64  `json:"tenant"`
	Name               string `json:"name"`
	WorkloadClass      string `json:"workload_class"`
	WorkerCount        int64  `json:"worker_count"`
	VcpusPerNode       int64  `json:"vcpus_per_node"`
	MemoryGBPerNode    int64  `json:"memory_gb_per_node"`
	LoginNode          bool   `json:"login_node"`
	Interconnect       string `json:"interconnect"`
	NetworkMode        string `json:"network_mode"`
	DataPath           string `json:"data_path"`
	NicType            string `json:"nic_type"`
	GpuMode            string `json:"gpu_mode"`
	GpusPerWorker      int64  `json:"gpus_per_worker"`
	VgpuProfile        string `json:"vgpu_profile"`
	LeaseEnd           string `json:"lease_end"`
	Justification      string `json:"justification"`
	State              string `json:"state"`
	StatusMessage      string `json:"status_message"`
	RejectionReason    string `json:"rejection_reason"`
	Generation         int64  `json:"generation"`
	ObservedGeneration int64  `json:"observed_generation"`
	RequestedBy        string `json:"requested_by"`
	VMCount            int64  `json:"vm_count"`
	VFCount            int64  `json:"vf_count"`
	SiteKind           string `json:"site_kind"`
	Segment            *int64 `json:"segment"`
}

func (r *clusterResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cluster"
}

// Attributes that only a new request can change (RequiresReplace), required or optional with the API's default.
func clusterFixed() map[string]schema.Attribute {
	replaceStr := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	replaceInt := []planmodifier.Int64{int64planmodifier.RequiresReplace()}
	optStr := func(d string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, Computed: true, Description: d + " A change requests a new cluster.",
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIfConfigured(), stringplanmodifier.UseStateForUnknown()}}
	}
	return map[string]schema.Attribute{
		"tenant_id":          schema.Int64Attribute{Required: true, PlanModifiers: replaceInt, Description: "The tenant's id (data source enclave_tenant)."},
		"name":               schema.StringAttribute{Required: true, PlanModifiers: replaceStr, Description: "DNS label, unique among the tenant's live clusters."},
		"workload_class":     schema.StringAttribute{Required: true, PlanModifiers: replaceStr, Description: "high-throughput, parallel-distributed or ml."},
		"vcpus_per_node":     schema.Int64Attribute{Required: true, PlanModifiers: replaceInt, Description: "vCPUs of every VM."},
		"memory_gb_per_node": schema.Int64Attribute{Required: true, PlanModifiers: replaceInt, Description: "Memory (GB) of every VM."},
		"login_node": schema.BoolAttribute{Optional: true, Computed: true, Description: "Add a login node (default true).",
			PlanModifiers: []planmodifier.Bool{boolplanmodifier.RequiresReplaceIfConfigured(), boolplanmodifier.UseStateForUnknown()}},
		"network_mode": optStr("vlan or overlay."),
		"data_path":    optStr("standard, enhanced or dpu."),
		"nic_type":     optStr("vmxnet3 or e1000e."),
		"gpu_mode":     optStr("none, vgpu or passthrough."),
		"gpus_per_worker": schema.Int64Attribute{Optional: true, Computed: true, Description: "GPUs per worker (with a GPU mode).",
			PlanModifiers: []planmodifier.Int64{int64planmodifier.RequiresReplaceIfConfigured(), int64planmodifier.UseStateForUnknown()}},
		"vgpu_profile": optStr("NVIDIA vGPU profile (gpu_mode vgpu)."),
	}
}

// Attributes that change in place, settings of the provider's own, and what the site reports.
func clusterChangeable() map[string]schema.Attribute {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	return map[string]schema.Attribute{
		"id":            idAttribute(),
		"worker_count":  schema.Int64Attribute{Required: true, Description: "Workers; in place: edits a draft, resizes a live cluster (owners)."},
		"interconnect":  schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: keep, Description: "none, sriov-ib, sriov-roce, pvrdma or directpath; in place like worker_count."},
		"lease_end":     schema.StringAttribute{Required: true, Description: "Last day (YYYY-MM-DD); moving it later extends the lease in place."},
		"justification": schema.StringAttribute{Required: true, Description: "Why the cluster is needed; editable while a draft only."},
		"lease_justification": schema.StringAttribute{Optional: true, Description: "Sent with a lease extension past the site's maximum: " +
			"the extension then waits for a PI's or site admin's decision."},
		"submit":              schema.BoolAttribute{Optional: true, Description: "Submit the request (default true); false keeps a draft."},
		"wait_for":            schema.StringAttribute{Optional: true, Description: "submitted (default: return once submitted), approved, or ready (wait until the site realized it)."},
		"ready_timeout":       schema.StringAttribute{Optional: true, Description: "How long to wait for wait_for (default 60m)."},
		"delete_timeout":      schema.StringAttribute{Optional: true, Description: "How long destroy waits until the cluster is retired (default 30m; 0s: do not wait)."},
		"state":               schema.StringAttribute{Computed: true, Description: "draft, submitted, endorsed, approved, provisioning, ready, degraded, error, ..."},
		"status_message":      schema.StringAttribute{Computed: true, Description: "What the site last said."},
		"rejection_reason":    schema.StringAttribute{Computed: true},
		"generation":          schema.Int64Attribute{Computed: true, Description: "Version of the intent."},
		"observed_generation": schema.Int64Attribute{Computed: true, Description: "Version the site realized."},
		"requested_by":        computedString("User who requested the cluster."),
		"vm_count":            schema.Int64Attribute{Computed: true},
		"vf_count":            schema.Int64Attribute{Computed: true, Description: "SR-IOV virtual functions."},
		"site_kind":           schema.StringAttribute{Computed: true},
		"segment_id":          schema.Int64Attribute{Computed: true, Description: "Segment reserved at approval."},
	}
}

func (r *clusterResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attributes := clusterChangeable()
	for name, a := range clusterFixed() {
		attributes[name] = a
	}
	resp.Schema = schema.Schema{
		Description: "A virtual cluster request. Create submits it; a member's request then needs a PI's endorsement and " +
			"a site admin's approval before the site realizes it, so by default apply returns once submitted " +
			"(wait_for = \"ready\" waits for realization). Destroy withdraws a pending request or decommissions the cluster.",
		Attributes: attributes,
	}
}

func (m clusterModel) createBody() map[string]any {
	body := map[string]any{"submit": m.Submit.IsNull() || m.Submit.ValueBool()}
	for key, value := range map[string]attr.Value{
		"tenant": m.Tenant, "name": m.Name, "workload_class": m.WorkloadClass, "worker_count": m.WorkerCount,
		"vcpus_per_node": m.VcpusPerNode, "memory_gb_per_node": m.MemoryGBPerNode, "login_node": m.LoginNode,
		"interconnect": m.Interconnect, "network_mode": m.NetworkMode, "data_path": m.DataPath, "nic_type": m.NicType,
		"gpu_mode": m.GpuMode, "gpus_per_worker": m.GpusPerWorker, "vgpu_profile": m.VgpuProfile,
		"lease_end": m.LeaseEnd, "justification": m.Justification,
	} {
		setIfKnown(body, key, value)
	}
	return body
}

// withAPI copies the API's view into the model, keeping the provider's own settings.
func (m clusterModel) withAPI(out clusterJSON) clusterModel {
	m.ID, m.Tenant, m.Name = idString(out.ID), types.Int64Value(out.Tenant), types.StringValue(out.Name)
	m.WorkloadClass, m.WorkerCount = types.StringValue(out.WorkloadClass), types.Int64Value(out.WorkerCount)
	m.VcpusPerNode, m.MemoryGBPerNode = types.Int64Value(out.VcpusPerNode), types.Int64Value(out.MemoryGBPerNode)
	m.LoginNode, m.Interconnect = types.BoolValue(out.LoginNode), types.StringValue(out.Interconnect)
	m.NetworkMode, m.DataPath = types.StringValue(out.NetworkMode), types.StringValue(out.DataPath)
	m.NicType, m.GpuMode = types.StringValue(out.NicType), types.StringValue(out.GpuMode)
	m.GpusPerWorker, m.VgpuProfile = types.Int64Value(out.GpusPerWorker), types.StringValue(out.VgpuProfile)
	m.LeaseEnd, m.Justification = types.StringValue(out.LeaseEnd), types.StringValue(out.Justification)
	m.State, m.StatusMessage = types.StringValue(out.State), types.StringValue(out.StatusMessage)
	m.RejectionReason, m.Generation = types.StringValue(out.RejectionReason), types.Int64Value(out.Generation)
	m.ObservedGeneration, m.RequestedBy = types.Int64Value(out.ObservedGeneration), types.StringValue(out.RequestedBy)
	m.VMCount, m.VFCount = types.Int64Value(out.VMCount), types.Int64Value(out.VFCount)
	m.SiteKind, m.Segment = types.StringValue(out.SiteKind), int64Value(out.Segment)
	return m
}

func (r *clusterResource) get(ctx context.Context, id int64) (clusterJSON, error) {
	var out clusterJSON
	err := r.api.client.Get(ctx, fmt.Sprintf("clusters/%d/", id), nil, &out)
	return out, err
}

func (r *clusterResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan clusterModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	wait, ok := waitSettings(plan, &resp.Diagnostics)
	if !ok {
		return
	}
	var out clusterJSON
	if err := r.api.client.Post(ctx, "clusters/", plan.createBody(), &out); err != nil {
		addError(&resp.Diagnostics, "Requesting cluster "+plan.Name.ValueString(), err)
		return
	}
	// Saved before waiting: a failed wait leaves the cluster in the state (tainted), never orphaned.
	resp.Diagnostics.Append(resp.State.Set(ctx, plan.withAPI(out))...)
	if out.State == "draft" {
		return
	}
	out, err := r.waitFor(ctx, out, wait)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan.withAPI(out))...)
	if err != nil {
		resp.Diagnostics.AddError(fmt.Sprintf("Cluster %s is not %s", plan.Name.ValueString(), wait.target), err.Error())
	}
}

func (r *clusterResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state clusterModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	id, ok := objectID(state.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	out, err := r.get(ctx, id)
	if gone(err) || (err == nil && out.State == "retired") {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		addError(&resp.Diagnostics, "Reading cluster "+state.ID.ValueString(), err)
		return
	}
	if out.State == "rejected" {
		resp.Diagnostics.AddWarning(fmt.Sprintf("Cluster %s was rejected", out.Name), out.RejectionReason)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, state.withAPI(out))...)
}

func (r *clusterResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
