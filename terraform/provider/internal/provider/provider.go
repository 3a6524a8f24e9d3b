// Package provider implements the Terraform provider "enclave" with terraform-plugin-framework.
package provider

import (
	"context"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"enclave/terraform/provider/internal/client"
)

// Version is set at build time (-ldflags "-X ...provider.Version=...").
var Version = "dev"

// enclaveProvider holds nothing until Configure: each resource gets the configured API.
type enclaveProvider struct{}

// New returns the provider factory providerserver.Serve needs.
func New() func() provider.Provider {
	return func() provider.Provider { return &enclaveProvider{} }
}

type providerModel struct {
	URL          types.String `tfsdk:"url"`
	Token        types.String `tfsdk:"token"`
	CABundle     types.String `tfsdk:"ca_bundle"`
	PollInterval types.String `tfsdk:"poll_interval"`
}

// api is what resources and data sources receive: the client and how often to poll while waiting.
type api struct {
	client *client.Client
	poll   time.Duration
}

func (p *enclaveProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "enclave"
	resp.Version = Version
}

func (p *enclaveProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Manage a tenant's own Enclave objects (clusters, segments, groups, firewall policies and rules, tokens).",
		Attributes: map[string]schema.Attribute{
			"url": schema.StringAttribute{
				Optional:    true,
				Description: "The portal's base URL, e.g. https://enclave.example.org (or ENCLAVE_URL).",
			},
			"token": schema.StringAttribute{
				Optional: true, Sensitive: true,
				Description: "An API token with write scope (or ENCLAVE_TOKEN).",
			},
			"ca_bundle": schema.StringAttribute{
				Optional:    true,
				Description: "PEM file of the CA that signed the portal's certificate (or ENCLAVE_CA_BUNDLE); the system's roots otherwise. Certificates are always verified.",
			},
			"poll_interval": schema.StringAttribute{
				Optional:    true,
				Description: "How often to read a cluster's state while waiting, as a Go duration (default 5s).",
			},
		},
	}
}

func (p *enclaveProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var config providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if config.URL.IsUnknown() || config.Token.IsUnknown() {
		resp.Diagnostics.AddError("Provider configuration not known yet",
			"The url and token of the enclave provider must be known before planning.")
		return
	}
	poll, err := parseDuration(config.PollInterval, 5*time.Second)
	if err != nil {
		resp.Diagnostics.AddError("Invalid poll_interval", err.Error())
		return
	}
	c, err := client.New(client.Options{
		URL:      orEnv(config.URL, "ENCLAVE_URL"),
		Token:    orEnv(config.Token, "ENCLAVE_TOKEN"),
		CABundle: orEnv(config.CABundle, "ENCLAVE_CA_BUNDLE"),
	})
	if err != nil {
		resp.Diagnostics.AddError("Cannot configure the enclave provider", err.Error())
		return
	}
	c.UserAgent = "terraform-provider-enclave/" + Version
	shared := &api{client: c, poll: poll}
	resp.ResourceData = shared
	resp.DataSourceData = shared
}

func orEnv(value types.String, name string) string {
	if !value.IsNull() && value.ValueString() != "" {
		return value.ValueString()
	}
	return os.Getenv(name)
}

func (p *enclaveProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		newSegmentResource, newGroupResource, newPolicyResource, newRuleResource, newTokenResource,
		newClusterResource,
	}
}

func (p *enclaveProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{newTenantDataSource, newServiceDataSource}
}
