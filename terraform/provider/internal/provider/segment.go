package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// segmentResource: a tenant's segment. The API has no edit, so every change replaces it; delete retires it.
type segmentResource struct{ base }

func newSegmentResource() resource.Resource { return &segmentResource{} }

type segmentModel struct {
	ID             types.String `tfsdk:"id"`
	Tenant         types.Int64  `tfsdk:"tenant_id"`
	Name           types.String `tfsdk:"name"`
	Kind           types.String `tfsdk:"kind"`
	IDPool         types.Int64  `tfsdk:"id_pool"`
	VlanID         types.Int64  `tfsdk:"vlan_id"`
	VNI            types.Int64  `tfsdk:"vni"`
	PrefixPool     types.Int64  `tfsdk:"prefix_pool"`
	Subnet         types.String `tfsdk:"subnet"`
	PrefixLength   types.Int64  `tfsdk:"prefix_length"`
	Gateway        types.String `tfsdk:"gateway"`
	MTU            types.Int64  `tfsdk:"mtu"`
	DataPath       types.String `tfsdk:"data_path"`
	VsphereCluster types.String `tfsdk:"vsphere_cluster"`
	NodePool       types.Int64  `tfsdk:"node_pool"`
	RoutingDomain  types.String `tfsdk:"routing_domain"`
	EffectiveMTU   types.Int64  `tfsdk:"effective_mtu"`
	State          types.String `tfsdk:"state"`
}

type segmentJSON struct {
	ID             int64  `json:"id"`
	Tenant         int64  `json:"tenant"`
	Name           string `json:"name"`
	Kind           string `json:"kind"`
	IDPool         *int64 `json:"id_pool"`
	VlanID         *int64 `json:"vlan_id"`
	VNI            *int64 `json:"vni"`
	PrefixPool     *int64 `json:"prefix_pool"`
	Subnet         string `json:"subnet"`
	Gateway        string `json:"gateway"`
	MTU            int64  `json:"mtu"`
	DataPath       string `json:"data_path"`
	VsphereCluster string `json:"vsphere_cluster"`
	NodePool       *int64 `json:"node_pool"`
	RoutingDomain  string `json:"routing_domain"`
	EffectiveMTU   int64  `json:"effective_mtu"`
	State          string `json:"state"`
}

func (r *segmentResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_segment"
}

func (r *segmentResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replaceInt := []planmodifier.Int64{int64planmodifier.RequiresReplace()}
	keepInt := []planmodifier.Int64{int64planmodifier.RequiresReplaceIfConfigured(), int64planmodifier.UseStateForUnknown()}
	keepStr := []planmodifier.String{stringplanmodifier.RequiresReplaceIfConfigured(), stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		Description: "A segment (an L2 network with a VLAN or overlay id and a subnet). Segments cannot be edited: " +
			"any change requests a new one. Destroy retires it (its ids and subnet return to the pools). " +
			"A tenant's segment waits for a site admin's approval (state `requested`).",
		Attributes: map[string]schema.Attribute{
			"id":              idAttribute(),
			"tenant_id":       schema.Int64Attribute{Required: true, PlanModifiers: replaceInt, Description: "The tenant's id (see data source enclave_tenant)."},
			"name":            schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}, Description: "DNS label, unique among the tenant's live segments."},
			"kind":            schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}, Description: "vlan or overlay."},
			"id_pool":         schema.Int64Attribute{Optional: true, Computed: true, PlanModifiers: keepInt, Description: "Pool the VLAN/VNI comes from (default: the tenant's or the site's)."},
			"vlan_id":         schema.Int64Attribute{Optional: true, Computed: true, PlanModifiers: keepInt, Description: "VLAN id; next free when omitted."},
			"vni":             schema.Int64Attribute{Optional: true, Computed: true, PlanModifiers: keepInt, Description: "Overlay VNI; next free when omitted."},
			"prefix_pool":     schema.Int64Attribute{Optional: true, Computed: true, PlanModifiers: keepInt, Description: "Pool the subnet comes from."},
			"subnet":          schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: keepStr, Description: "Subnet in canonical form; next free when omitted."},
			"prefix_length":   schema.Int64Attribute{Optional: true, PlanModifiers: replaceInt, Description: "Prefix length of the next-free subnet (create only)."},
			"gateway":         schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: keepStr, Description: "Gateway address; the subnet's first by default."},
			"mtu":             schema.Int64Attribute{Optional: true, Computed: true, PlanModifiers: keepInt, Description: "MTU (default 9000)."},
			"data_path":       schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: keepStr, Description: "standard, enhanced or dpu."},
			"vsphere_cluster": schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: keepStr, Description: "vSphere cluster realizing the segment."},
			"node_pool":       schema.Int64Attribute{Optional: true, Computed: true, PlanModifiers: keepInt, Description: "Linux node pool realizing an overlay."},
			"routing_domain":  computedString("Routing domain (from the pool)."),
			"effective_mtu":   schema.Int64Attribute{Computed: true, PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}, Description: "MTU the path really carries."},
			"state":           schema.StringAttribute{Computed: true, Description: "requested, approved, provisioning, ready or error."},
		},
	}
}

func (r *segmentResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan segmentModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	body := map[string]any{"tenant": plan.Tenant.ValueInt64(), "name": plan.Name.ValueString(), "kind": plan.Kind.ValueString()}
	for key, value := range map[string]attr.Value{
		"id_pool": plan.IDPool, "vlan_id": plan.VlanID, "vni": plan.VNI, "prefix_pool": plan.PrefixPool,
		"prefix_length": plan.PrefixLength, "mtu": plan.MTU, "node_pool": plan.NodePool, "subnet": plan.Subnet,
		"gateway": plan.Gateway, "data_path": plan.DataPath, "vsphere_cluster": plan.VsphereCluster,
	} {
		setIfKnown(body, key, value)
	}
	var out segmentJSON
	if err := r.api.client.Post(ctx, "segments/", body, &out); err != nil {
		addError(&resp.Diagnostics, "Creating segment "+plan.Name.ValueString(), err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, segmentState(out, plan.PrefixLength))...)
}

func (r *segmentResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state segmentModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	id, ok := objectID(state.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	var out segmentJSON
	err := r.api.client.Get(ctx, fmt.Sprintf("segments/%d/", id), nil, &out)
	if gone(err) || out.State == "retired" {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		addError(&resp.Diagnostics, "Reading segment "+state.ID.ValueString(), err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, segmentState(out, state.PrefixLength))...)
}

// Update is never called with a change (every attribute replaces), but the interface needs it.
func (r *segmentResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan segmentModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

func (r *segmentResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state segmentModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	id, ok := objectID(state.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	var current segmentJSON
	err := r.api.client.Get(ctx, fmt.Sprintf("segments/%d/", id), nil, &current)
	if gone(err) || current.State == "retired" || current.State == "rejected" {
		return
	}
	if err == nil {
		err = r.api.client.Post(ctx, fmt.Sprintf("segments/%d/retire/", id), nil, nil)
	}
	if err != nil {
		addError(&resp.Diagnostics, "Retiring segment "+state.Name.ValueString(), err)
	}
}

func (r *segmentResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

func segmentState(out segmentJSON, prefixLength types.Int64) segmentModel {
	return segmentModel{
		ID: idString(out.ID), Tenant: types.Int64Value(out.Tenant), Name: types.StringValue(out.Name),
		Kind: types.StringValue(out.Kind), IDPool: int64Value(out.IDPool), VlanID: int64Value(out.VlanID),
		VNI: int64Value(out.VNI), PrefixPool: int64Value(out.PrefixPool), Subnet: types.StringValue(out.Subnet),
		PrefixLength: prefixLength, Gateway: types.StringValue(out.Gateway), MTU: types.Int64Value(out.MTU),
		DataPath: types.StringValue(out.DataPath), VsphereCluster: types.StringValue(out.VsphereCluster),
		NodePool: int64Value(out.NodePool), RoutingDomain: types.StringValue(out.RoutingDomain),
		EffectiveMTU: types.Int64Value(out.EffectiveMTU), State: types.StringValue(out.State),
	}
}
