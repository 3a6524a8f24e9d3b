// Command terraform-provider-enclave serves the enclave provider to Terraform.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"enclave/terraform/provider/internal/provider"
)

func main() {
	debug := flag.Bool("debug", false, "run with support for debuggers such as delve")
	flag.Parse()
	err := providerserver.Serve(context.Background(), provider.New(), providerserver.ServeOpts{
		Address: "registry.terraform.io/enclave/enclave",
		Debug:   *debug,
	})
	if err != nil {
		log.Fatal(err)
	}
}
