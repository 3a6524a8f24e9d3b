"""The `enclave` command line and the workflows it runs on top of the generated `enclave_client`."""
