"""Choosing and taking: hosts and devices for constrained nodes, SR-IOV VFs, what approval reserves."""
