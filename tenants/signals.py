"""The tenants app's signal: other apps add their default intent to a new tenant (a check that may refuse is a
registered hook instead: tenants.hooks)."""

from django.dispatch import Signal

# Sent inside the transaction that creates a tenant; receivers add their own default intent.
tenant_created = Signal()
