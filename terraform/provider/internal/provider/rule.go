package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// ruleResource: one firewall rule, with a stable id and an explicit sequence number within its policy.
type ruleResource struct{ base }

func newRuleResource() resource.Resource { return &ruleResource{} }

type ruleModel struct {
	ID           types.String `tfsdk:"id"`
	Policy       types.Int64  `tfsdk:"policy_id"`
	Name         types.String `tfsdk:"name"`
	Sequence     types.Int64  `tfsdk:"sequence"`
	Sources      types.Set    `tfsdk:"sources"`
	Destinations types.Set    `tfsdk:"destinations"`
	Services     types.Set    `tfsdk:"services"`
	Action       types.String `tfsdk:"action"`
	Direction    types.String `tfsdk:"direction"`
	Logged       types.Bool   `tfsdk:"logged"`
	Enabled      types.Bool   `tfsdk:"enabled"`
	Description  types.String `tfsdk:"description"`
	Findings     types.List   `tfsdk:"findings"`
}

type ruleJSON struct {
	ID           int64         `json:"id"`
	Policy       int64         `json:"policy"`
	Name         string        `json:"name"`
	Sequence     int64         `json:"sequence"`
	Sources      []int64       `json:"sources"`
	Destinations []int64       `json:"destinations"`
	Services     []int64       `json:"services"`
	Action       string        `json:"action"`
	Direction    string        `json:"direction"`
	Logged       bool          `json:"logged"`
	Enabled      bool          `json:"enabled"`
	Description  string        `json:"description"`
	Findings     []findingJSON `json:"findings"`
}

type findingJSON struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

func (r *ruleResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_firewall_rule"
}

func groupSet(description string) schema.SetAttribute {
	return schema.SetAttribute{ElementType: types.Int64Type, Optional: true, Description: description}
}

func (r *ruleResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A firewall rule. Its id never changes: a new sequence number, ports (services) or groups " +
			"update it in place. Sequence numbers are unique within the policy.",
		Attributes: map[string]schema.Attribute{
			"id":           idAttribute(),
			"policy_id":    schema.Int64Attribute{Required: true, PlanModifiers: []planmodifier.Int64{int64planmodifier.RequiresReplace()}, Description: "The policy's id; a rule cannot move to another policy."},
			"name":         schema.StringAttribute{Required: true, Description: "The rule's name."},
			"sequence":     schema.Int64Attribute{Required: true, Description: "Position within the policy (lower first), unique in it."},
			"sources":      groupSet("Source group ids; empty or absent: any."),
			"destinations": groupSet("Destination group ids; empty or absent: any."),
			"services":     groupSet("Service ids (protocol and ports; see data source enclave_service); empty or absent: any."),
			"action":       schema.StringAttribute{Required: true, Description: "allow, drop or reject."},
			"direction":    optionalComputedString("in, out or in_out (default in_out)."),
			"logged": schema.BoolAttribute{Optional: true, Computed: true, Description: "Log matches (default false).",
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}},
			"enabled": schema.BoolAttribute{Optional: true, Computed: true, Description: "Whether the rule applies (default true).",
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}},
			"description": optionalComputedString("Free text."),
			"findings": schema.ListAttribute{ElementType: types.StringType, Computed: true,
				Description: "The analysis' findings about the rule, as \"kind: message\" (shadowed, redundant, exposes)."},
		},
	}
}

func (m ruleModel) body(ctx context.Context, diags *diagnostics) map[string]any {
	body := map[string]any{
		"policy": m.Policy.ValueInt64(), "name": m.Name.ValueString(), "sequence": m.Sequence.ValueInt64(),
		"action": m.Action.ValueString(), "sources": int64sOf(ctx, m.Sources, diags),
		"destinations": int64sOf(ctx, m.Destinations, diags), "services": int64sOf(ctx, m.Services, diags),
	}
	setIfKnown(body, "direction", m.Direction)
	setIfKnown(body, "logged", m.Logged)
	setIfKnown(body, "enabled", m.Enabled)
	setIfKnown(body, "description", m.Description)
	return body
}

// ruleState keeps an absent set absent when the API answers an empty one, so plans stay clean.
func ruleState(ctx context.Context, out ruleJSON, prior ruleModel, diags *diagnostics) ruleModel {
	ids := func(values []int64, was types.Set) types.Set {
		if len(values) == 0 && was.IsNull() {
			return types.SetNull(types.Int64Type)
		}
		return int64Set(ctx, values, diags)
	}
	findings := make([]string, 0, len(out.Findings))
	for _, f := range out.Findings {
		findings = append(findings, f.Kind+": "+f.Message)
	}
	return ruleModel{
		ID: idString(out.ID), Policy: types.Int64Value(out.Policy), Name: types.StringValue(out.Name),
		Sequence: types.Int64Value(out.Sequence), Sources: ids(out.Sources, prior.Sources),
		Destinations: ids(out.Destinations, prior.Destinations), Services: ids(out.Services, prior.Services),
		Action: types.StringValue(out.Action), Direction: types.StringValue(out.Direction),
		Logged: types.BoolValue(out.Logged), Enabled: types.BoolValue(out.Enabled),
		Description: types.StringValue(out.Description), Findings: stringList(ctx, findings, diags),
	}
}

func (r *ruleResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan ruleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var out ruleJSON
	if err := r.api.client.Post(ctx, "firewall-rules/", plan.body(ctx, &resp.Diagnostics), &out); err != nil {
		addError(&resp.Diagnostics, "Creating firewall rule "+plan.Name.ValueString(), err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, ruleState(ctx, out, plan, &resp.Diagnostics))...)
}

func (r *ruleResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state ruleModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	id, ok := objectID(state.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	var out ruleJSON
	if err := r.api.client.Get(ctx, fmt.Sprintf("firewall-rules/%d/", id), nil, &out); err != nil {
		if gone(err) {
			resp.State.RemoveResource(ctx)
			return
		}
		addError(&resp.Diagnostics, "Reading firewall rule "+state.ID.ValueString(), err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, ruleState(ctx, out, state, &resp.Diagnostics))...)
}

func (r *ruleResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state ruleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	id, ok := objectID(state.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	var out ruleJSON
	if err := r.api.client.Put(ctx, fmt.Sprintf("firewall-rules/%d/", id), plan.body(ctx, &resp.Diagnostics), &out); err != nil {
		addError(&resp.Diagnostics, "Updating firewall rule "+plan.Name.ValueString(), err)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, ruleState(ctx, out, plan, &resp.Diagnostics))...)
}

func (r *ruleResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	deleteByID(ctx, r.api, "firewall-rules", req.State, &resp.Diagnostics)
}

func (r *ruleResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
