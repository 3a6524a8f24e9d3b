"""Extension points other apps hook into: default intent of a new tenant, refusal of a membership or a change."""

from django.dispatch import Signal

# Sent inside the transaction that creates a tenant; receivers add their own default intent.
tenant_created = Signal()
# Sent inside the transaction that adds `user` to `tenant`, before the row exists; receivers may
# raise a ServiceError to refuse it (e.g. the node agents: one tenant network per user and node).
membership_pre_create = Signal()
# Sent before a cluster's shape or lease changes (a draft edit, a resize, a lease extension) with the fields
# it would get (`changes`); receivers raise a ServiceError to refuse (the catalog: its item version's bounds).
cluster_pre_change = Signal()
# Asked for the latest lease end a cluster may ever get, even with an approved extension; receivers answer
# (date, why) or None (the catalog: "ml-training version 1 lives at most 120 days").
cluster_lease_limit = Signal()
