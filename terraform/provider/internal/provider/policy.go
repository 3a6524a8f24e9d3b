package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// policyResource: an ordered list of rules in one category, owned by a tenant.
type policyResource struct{ base }

func newPolicyResource() resource.Resource { return &policyResource{} }

type policyModel struct {
	ID          types.String `tfsdk:"id"`
	Tenant      types.Int64  `tfsdk:"tenant_id"`
	Name        types.String `tfsdk:"name"`
	Category    types.String `tfsdk:"category"`
	Sequence    types.Int64  `tfsdk:"sequence"`
	Description types.String `tfsdk:"description"`
}

type policyJSON struct {
	ID          int64  `json:"id"`
	Tenant      *int64 `json:"tenant"`
	Name        string `json:"name"`
	Category    string `json:"category"`
	Sequence    int64  `json:"sequence"`
	Description string `json:"description"`
}

func (r *policyResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_firewall_policy"
}

func (r *policyResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A tenant's firewall policy: an ordered list of rules in one category. Changes apply in place; " +
			"destroy deletes its rules too.",
		Attributes: map[string]schema.Attribute{
			"id":          idAttribute(),
			"tenant_id":   schema.Int64Attribute{Required: true, PlanModifiers: []planmodifier.Int64{int64planmodifier.RequiresReplace()}, Description: "The tenant's id."},
			"name":        schema.StringAttribute{Required: true, Description: "Unique in the tenant."},
			"category":    schema.StringAttribute{Required: true, Description: "environment or application (tenants' categories)."},
			"sequence":    schema.Int64Attribute{Required: true, Description: "Position of the policy within its category (lower first)."},
			"description": optionalComputedString("Free text."),
		},
	}
}

func (m policyModel) body() map[string]any {
	body := map[string]any{
		"tenant": m.Tenant.ValueInt64(), "name": m.Name.ValueString(), "category": m.Category.ValueString(),
		"sequence": m.Sequence.ValueInt64(),
	}
	setIfKnown(body, "description", m.Description)
	return body
}

func policyState(out policyJSON) policyModel {
	return policyModel{
		ID: idString(out.ID), Tenant: int64Value(out.Tenant), Name: types.StringValue(out.Name),
		Category: types.StringValue(out.Category), Sequence: types.Int64Value(out.Sequence),
		Description: types.StringValue(out.Description),
	}
}

func (r *policyResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan policyModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var out policyJSON
	if err := r.api.client.Post(ctx, "firewall-policies/", plan.body(), &out); err != nil {
		addError(&resp.Diagnostics, "Creating firewall policy "+plan.Name.ValueString(), err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, policyState(out))...)
}

func (r *policyResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state policyModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	id, ok := objectID(state.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	var out policyJSON
	if err := r.api.client.Get(ctx, fmt.Sprintf("firewall-policies/%d/", id), nil, &out); err != nil {
		if gone(err) {
			resp.State.RemoveResource(ctx)
			return
		}
		addError(&resp.Diagnostics, "Reading firewall policy "+state.ID.ValueString(), err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, policyState(out))...)
}

func (r *policyResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state policyModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	id, ok := objectID(state.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	var out policyJSON
	if err := r.api.client.Put(ctx, fmt.Sprintf("firewall-policies/%d/", id), plan.body(), &out); err != nil {
		addError(&resp.Diagnostics, "Updating firewall policy "+plan.Name.ValueString(), err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, policyState(out))...)
}

func (r *policyResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	deleteByID(ctx, r.api, "firewall-policies", req.State, &resp.Diagnostics)
}

func (r *policyResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
