"""The pure model and planning: specs, needs and capacity, offers, where VMs attach, the diff and preflight.

Reads PostgreSQL at most (capacity, the tenant's segment); never writes it and never imports pyvmomi.
"""
