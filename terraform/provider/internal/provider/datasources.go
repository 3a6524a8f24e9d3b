package provider

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"enclave/terraform/provider/internal/client"
)

// dataBase gives data sources the configured API.
type dataBase struct{ base }

func (d *dataBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.configure(req.ProviderData, &resp.Diagnostics)
}

// tenantDataSource finds one of the user's tenants by slug or name.
type tenantDataSource struct{ dataBase }

func newTenantDataSource() datasource.DataSource { return &tenantDataSource{} }

type tenantModel struct {
	ID          types.Int64  `tfsdk:"id"`
	Slug        types.String `tfsdk:"slug"`
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
}

type tenantJSON struct {
	ID          int64  `json:"id"`
	Slug        string `json:"slug"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

func (d *tenantDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_tenant"
}

func (d *tenantDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "One of the user's tenants, by slug or by name, so configurations name tenants instead of ids.",
		Attributes: map[string]schema.Attribute{
			"id":          schema.Int64Attribute{Computed: true, Description: "The tenant's id (tenant_id of other resources)."},
			"slug":        schema.StringAttribute{Optional: true, Computed: true, Description: "The tenant's slug, e.g. astro."},
			"name":        schema.StringAttribute{Optional: true, Computed: true, Description: "The tenant's display name."},
			"description": schema.StringAttribute{Computed: true},
		},
	}
}

func (d *tenantDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var config tenantModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	slug, name := config.Slug.ValueString(), config.Name.ValueString()
	if slug == "" && name == "" {
		resp.Diagnostics.AddError("No tenant named", "Give the tenant's slug or its name.")
		return
	}
	query := url.Values{}
	if slug != "" {
		query.Set("slug", slug)
	}
	tenants, err := client.List[tenantJSON](ctx, d.api.client, "tenants/", query)
	if err != nil {
		addError(&resp.Diagnostics, "Looking up tenant", err)
		return
	}
	for _, t := range tenants {
		if (slug == "" || t.Slug == slug) && (name == "" || t.Name == name) {
			resp.Diagnostics.Append(resp.State.Set(ctx, tenantModel{
				ID: types.Int64Value(t.ID), Slug: types.StringValue(t.Slug), Name: types.StringValue(t.Name),
				Description: types.StringValue(t.Description),
			})...)
			return
		}
	}
	resp.Diagnostics.AddError("No such tenant", fmt.Sprintf("No tenant %s among this token's tenants.", describe(slug, name)))
}

func describe(slug, name string) string {
	var parts []string
	if slug != "" {
		parts = append(parts, fmt.Sprintf("with slug %q", slug))
	}
	if name != "" {
		parts = append(parts, fmt.Sprintf("named %q", name))
	}
	return strings.Join(parts, " and ")
}

// serviceDataSource finds a service of the site's catalogue (protocol and ports) by name.
type serviceDataSource struct{ dataBase }

func newServiceDataSource() datasource.DataSource { return &serviceDataSource{} }

type serviceModel struct {
	ID       types.Int64  `tfsdk:"id"`
	Name     types.String `tfsdk:"name"`
	Protocol types.String `tfsdk:"protocol"`
	Ports    types.String `tfsdk:"ports"`
}

type serviceJSON struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Protocol string `json:"protocol"`
	Ports    string `json:"ports"`
}

func (d *serviceDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_service"
}

func (d *serviceDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A service of the site's catalogue (a protocol and ports, e.g. ssh), for a rule's services.",
		Attributes: map[string]schema.Attribute{
			"id":       schema.Int64Attribute{Computed: true, Description: "The service's id."},
			"name":     schema.StringAttribute{Required: true, Description: "The service's name, e.g. ssh."},
			"protocol": schema.StringAttribute{Computed: true},
			"ports":    schema.StringAttribute{Computed: true, Description: "Ports and ranges, e.g. 22,6817-6819."},
		},
	}
}

func (d *serviceDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var config serviceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	name := config.Name.ValueString()
	services, err := client.List[serviceJSON](ctx, d.api.client, "services/", url.Values{"name": {name}})
	if err != nil {
		addError(&resp.Diagnostics, "Looking up service "+name, err)
		return
	}
	for _, s := range services {
		if s.Name == name {
			resp.Diagnostics.Append(resp.State.Set(ctx, serviceModel{
				ID: types.Int64Value(s.ID), Name: types.StringValue(s.Name),
				Protocol: types.StringValue(s.Protocol), Ports: types.StringValue(s.Ports),
			})...)
			return
		}
	}
	resp.Diagnostics.AddError("No such service", fmt.Sprintf("The site's catalogue has no service named %q.", name))
}
