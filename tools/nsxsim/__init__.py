"""A strict NSX Manager stand-in for tests: the Policy API objects Enclave uses, validated by the NSX SDK."""
