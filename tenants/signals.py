"""Extension points other apps hook into: default intent of a new tenant, refusal of a membership."""

from django.dispatch import Signal

# Sent inside the transaction that creates a tenant; receivers add their own default intent.
tenant_created = Signal()
# Sent inside the transaction that adds `user` to `tenant`, before the row exists; receivers may
# raise a ServiceError to refuse it (e.g. the node agents: one tenant network per user and node).
membership_pre_create = Signal()
