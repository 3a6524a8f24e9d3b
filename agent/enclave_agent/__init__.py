"""Enclave node agent (stdlib only; talks to the kernel through iproute2 batches and nft)."""

__version__ = "0.1.0"
