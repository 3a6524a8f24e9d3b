package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// groupResource: addresses a firewall rule can name (CIDRs, a segment, all the tenant's segments, a role).
type groupResource struct{ base }

func newGroupResource() resource.Resource { return &groupResource{} }

type groupModel struct {
	ID          types.String `tfsdk:"id"`
	Tenant      types.Int64  `tfsdk:"tenant_id"`
	Name        types.String `tfsdk:"name"`
	CIDRs       types.List   `tfsdk:"cidrs"`
	Segment     types.Int64  `tfsdk:"segment_id"`
	AllSegments types.Bool   `tfsdk:"all_segments"`
	Role        types.String `tfsdk:"role"`
	Description types.String `tfsdk:"description"`
}

type groupJSON struct {
	ID          int64    `json:"id"`
	Tenant      *int64   `json:"tenant"`
	Name        string   `json:"name"`
	CIDRs       []string `json:"cidrs"`
	Segment     *int64   `json:"segment"`
	AllSegments bool     `json:"all_segments"`
	Role        string   `json:"role"`
	Description string   `json:"description"`
}

func (r *groupResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_group"
}

func (r *groupResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "An address group of a tenant, named by firewall rules. Changes apply in place.",
		Attributes: map[string]schema.Attribute{
			"id":        idAttribute(),
			"tenant_id": schema.Int64Attribute{Required: true, PlanModifiers: []planmodifier.Int64{int64planmodifier.RequiresReplace()}, Description: "The tenant's id."},
			"name":      schema.StringAttribute{Required: true, Description: "Unique in the tenant (letters, digits, _ and -)."},
			"cidrs": schema.ListAttribute{
				ElementType: types.StringType, Optional: true, Computed: true,
				PlanModifiers: []planmodifier.List{listplanmodifier.UseStateForUnknown()},
				Description:   "Networks in canonical form, e.g. 10.0.0.0/24.",
			},
			"segment_id": schema.Int64Attribute{Optional: true, Description: "A segment of the tenant whose subnet the group holds."},
			"all_segments": schema.BoolAttribute{
				Optional: true, Computed: true, PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
				Description: "Include every live segment of the tenant.",
			},
			"role":        optionalComputedString("login, manager or worker: the addresses of the tenant's VMs of that role."),
			"description": optionalComputedString("Free text."),
		},
	}
}

func (m groupModel) body(ctx context.Context, diags *diagnostics) map[string]any {
	body := map[string]any{"tenant": m.Tenant.ValueInt64(), "name": m.Name.ValueString(), "segment": int64Ptr(m.Segment)}
	if !m.CIDRs.IsUnknown() {
		body["cidrs"] = stringsOf(ctx, m.CIDRs, diags)
	}
	setIfKnown(body, "all_segments", m.AllSegments)
	setIfKnown(body, "role", m.Role)
	setIfKnown(body, "description", m.Description)
	return body
}

func groupState(ctx context.Context, out groupJSON, diags *diagnostics) groupModel {
	return groupModel{
		ID: idString(out.ID), Tenant: int64Value(out.Tenant), Name: types.StringValue(out.Name),
		CIDRs: stringList(ctx, out.CIDRs, diags), Segment: int64Value(out.Segment),
		AllSegments: types.BoolValue(out.AllSegments), Role: types.StringValue(out.Role),
		Description: types.StringValue(out.Description),
	}
}

func (r *groupResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan groupModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var out groupJSON
	if err := r.api.client.Post(ctx, "groups/", plan.body(ctx, &resp.Diagnostics), &out); err != nil {
		addError(&resp.Diagnostics, "Creating group "+plan.Name.ValueString(), err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, groupState(ctx, out, &resp.Diagnostics))...)
}

func (r *groupResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state groupModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	id, ok := objectID(state.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	var out groupJSON
	if err := r.api.client.Get(ctx, fmt.Sprintf("groups/%d/", id), nil, &out); err != nil {
		if gone(err) {
			resp.State.RemoveResource(ctx)
			return
		}
		addError(&resp.Diagnostics, "Reading group "+state.ID.ValueString(), err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, groupState(ctx, out, &resp.Diagnostics))...)
}

func (r *groupResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state groupModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	id, ok := objectID(state.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	var out groupJSON
	if err := r.api.client.Put(ctx, fmt.Sprintf("groups/%d/", id), plan.body(ctx, &resp.Diagnostics), &out); err != nil {
		addError(&resp.Diagnostics, "Updating group "+plan.Name.ValueString(), err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, groupState(ctx, out, &resp.Diagnostics))...)
}

func (r *groupResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	deleteByID(ctx, r.api, "groups", req.State, &resp.Diagnostics)
}

func (r *groupResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
