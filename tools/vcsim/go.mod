module enclave/tools/vcsim

go 1.24

require github.com/vmware/govmomi v0.52.0

require github.com/google/uuid v1.6.0 // indirect
