"""`python -m enclave_cli` runs the command line."""

from enclave_cli.main import main

main()
