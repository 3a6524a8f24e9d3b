package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"enclave/terraform/provider/internal/client"
)

// base is embedded by every resource and data source: it receives the configured API.
type base struct {
	api *api
}

func (b *base) configure(data any, diags *diag.Diagnostics) {
	if data == nil { // Terraform validates configs before the provider is configured
		return
	}
	shared, ok := data.(*api)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("got %T", data))
		return
	}
	b.api = shared
}

// Configure implements resource.ResourceWithConfigure.
func (b *base) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}

// addError turns an API error into a diagnostic: a summary by status, the API's messages as detail.
func addError(diags *diag.Diagnostics, doing string, err error) {
	var apiErr *client.APIError
	var down *client.UnreachableError
	switch {
	case errors.As(err, &apiErr):
		diags.AddError(fmt.Sprintf("%s: %s", doing, apiErr.Summary()), apiErr.Details())
	case errors.As(err, &down):
		diags.AddError(doing+": Enclave is unreachable", down.Error())
	default:
		diags.AddError(doing, err.Error())
	}
}

// objectID parses the Terraform id (the API's numeric id as a string).
func objectID(id types.String, diags *diag.Diagnostics) (int64, bool) {
	n, err := strconv.ParseInt(id.ValueString(), 10, 64)
	if err != nil || n < 1 {
		diags.AddError("Invalid id", fmt.Sprintf("%q is not an Enclave object id (a positive whole number)", id.ValueString()))
		return 0, false
	}
	return n, true
}

func idString(n int64) types.String { return types.StringValue(strconv.FormatInt(n, 10)) }

// parseDuration reads an optional Go duration ("30m", "1h30m"), with a default when null.
func parseDuration(value types.String, fallback time.Duration) (time.Duration, error) {
	if value.IsNull() || value.IsUnknown() || value.ValueString() == "" {
		return fallback, nil
	}
	d, err := time.ParseDuration(value.ValueString())
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a duration such as 30s, 20m or 2h", value.ValueString())
	}
	return d, nil
}

// Nullable API values and their Terraform counterparts.

func int64Ptr(v types.Int64) *int64 {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	n := v.ValueInt64()
	return &n
}

func int64Value(p *int64) types.Int64 {
	if p == nil {
		return types.Int64Null()
	}
	return types.Int64Value(*p)
}

// setIfKnown copies a planned value into an API body only when the configuration gave it.
func setIfKnown(body map[string]any, key string, v attr.Value) {
	if v.IsNull() || v.IsUnknown() {
		return
	}
	switch t := v.(type) {
	case types.String:
		body[key] = t.ValueString()
	case types.Int64:
		body[key] = t.ValueInt64()
	case types.Bool:
		body[key] = t.ValueBool()
	}
}

func int64Set(ctx context.Context, ids []int64, diags *diag.Diagnostics) types.Set {
	set, d := types.SetValueFrom(ctx, types.Int64Type, ids)
	diags.Append(d...)
	return set
}

func int64sOf(ctx context.Context, set types.Set, diags *diag.Diagnostics) []int64 {
	ids := []int64{}
	if set.IsNull() || set.IsUnknown() {
		return ids
	}
	diags.Append(set.ElementsAs(ctx, &ids, false)...)
	return ids
}

func stringList(ctx context.Context, values []string, diags *diag.Diagnostics) types.List {
	if values == nil {
		values = []string{}
	}
	list, d := types.ListValueFrom(ctx, types.StringType, values)
	diags.Append(d...)
	return list
}

func stringsOf(ctx context.Context, list types.List, diags *diag.Diagnostics) []string {
	values := []string{}
	if list.IsNull() || list.IsUnknown() {
		return values
	}
	diags.Append(list.ElementsAs(ctx, &values, false)...)
	return values
}

// gone says whether a read found the object deleted (404).
func gone(err error) bool { return err != nil && client.IsNotFound(err) }

func idAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Computed:      true,
		Description:   "The object's id in Enclave (stable; used by terraform import).",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

func computedString(description string) schema.StringAttribute {
	return schema.StringAttribute{
		Computed: true, Description: description,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

type diagnostics = diag.Diagnostics

func optionalComputedString(description string) schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true, Computed: true, Description: description,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// deleteByID deletes the object of a state with a plain DELETE; one already gone is fine.
func deleteByID(ctx context.Context, shared *api, collection string, state tfsdk.State, diags *diagnostics) {
	var id types.String
	diags.Append(state.GetAttribute(ctx, path.Root("id"), &id)...)
	n, ok := objectID(id, diags)
	if !ok {
		return
	}
	err := shared.client.Delete(ctx, fmt.Sprintf("%s/%d/", collection, n))
	if err != nil && !gone(err) {
		addError(diags, fmt.Sprintf("Deleting %s %d", collection, n), err)
	}
}
