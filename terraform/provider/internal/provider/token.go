package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// tokenResource: an API token of the provider's own user; the plaintext exists only in the create answer.
type tokenResource struct{ base }

func newTokenResource() resource.Resource { return &tokenResource{} }

type tokenModel struct {
	ID        types.String `tfsdk:"id"`
	Name      types.String `tfsdk:"name"`
	Scope     types.String `tfsdk:"scope"`
	ExpiresAt types.String `tfsdk:"expires_at"`
	Token     types.String `tfsdk:"token"`
	Hint      types.String `tfsdk:"hint"`
	IsActive  types.Bool   `tfsdk:"is_active"`
}

type tokenJSON struct {
	ID        int64   `json:"id"`
	Name      string  `json:"name"`
	Scope     string  `json:"scope"`
	ExpiresAt *string `json:"expires_at"`
	Token     string  `json:"token"`
	Hint      string  `json:"hint"`
	IsActive  bool    `json:"is_active"`
	RevokedAt *string `json:"revoked_at"`
}

func (r *tokenResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_token"
}

func (r *tokenResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace(), stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		Description: "An API token of the user the provider authenticates as. Any change makes a new token; " +
			"destroy revokes it. The plaintext is known only to the apply that created it (and then the state).",
		Attributes: map[string]schema.Attribute{
			"id":   idAttribute(),
			"name": schema.StringAttribute{Required: true, PlanModifiers: replace, Description: "Unique among the user's tokens, revoked ones included."},
			"scope": schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: replace,
				Description: "read or write (default read); never broader than the provider's own token."},
			"expires_at": schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: replace,
				Description: "RFC 3339 time; the site's default lifetime when omitted."},
			"token": schema.StringAttribute{Computed: true, Sensitive: true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
				Description:   "The plaintext token: set at create only (null after import)."},
			"hint":      computedString("The token's first characters, as the portal shows them."),
			"is_active": schema.BoolAttribute{Computed: true, Description: "False once expired."},
		},
	}
}

func tokenState(out tokenJSON, plaintext types.String) tokenModel {
	expires := types.StringNull()
	if out.ExpiresAt != nil {
		expires = types.StringValue(*out.ExpiresAt)
	}
	return tokenModel{
		ID: idString(out.ID), Name: types.StringValue(out.Name), Scope: types.StringValue(out.Scope),
		ExpiresAt: expires, Token: plaintext, Hint: types.StringValue(out.Hint), IsActive: types.BoolValue(out.IsActive),
	}
}

func (r *tokenResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan tokenModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	body := map[string]any{"name": plan.Name.ValueString()}
	setIfKnown(body, "scope", plan.Scope)
	setIfKnown(body, "expires_at", plan.ExpiresAt)
	var out tokenJSON
	if err := r.api.client.Post(ctx, "tokens/", body, &out); err != nil {
		addError(&resp.Diagnostics, "Creating token "+plan.Name.ValueString(), err)
		return
	}
	state := tokenState(out, types.StringValue(out.Token))
	if !plan.ExpiresAt.IsUnknown() {
		state.ExpiresAt = plan.ExpiresAt // the API may answer the same instant in another notation
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

func (r *tokenResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state tokenModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	id, ok := objectID(state.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	var out tokenJSON
	err := r.api.client.Get(ctx, fmt.Sprintf("tokens/%d/", id), nil, &out)
	if gone(err) || (err == nil && out.RevokedAt != nil) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		addError(&resp.Diagnostics, "Reading token "+state.ID.ValueString(), err)
		return
	}
	next := tokenState(out, state.Token)
	if !state.ExpiresAt.IsNull() {
		next.ExpiresAt = state.ExpiresAt
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, next)...)
}

// Update never changes the token (every attribute replaces it); it only carries the plan over.
func (r *tokenResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan tokenModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

func (r *tokenResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state tokenModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	id, ok := objectID(state.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	err := r.api.client.Post(ctx, fmt.Sprintf("tokens/%d/revoke/", id), nil, nil)
	if err != nil && !gone(err) {
		addError(&resp.Diagnostics, "Revoking token "+state.Name.ValueString(), err)
	}
}

func (r *tokenResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
