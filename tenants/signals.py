"""Extension point other apps hook into: default intent of a new tenant (network policy)."""

from django.dispatch import Signal

# Sent inside the transaction that creates a tenant; receivers add their own default intent.
tenant_created = Signal()
