"""Recompute nodes' desired state whenever intent that reaches nodes changes."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from agents import services
from netpolicy.models import FirewallPolicy, FirewallRule, Group, Segment
from tenants.models import Membership
from users.models import PosixAccount

WATCHED = (Segment, FirewallPolicy, FirewallRule, Group, Membership, PosixAccount)


@receiver(post_save)
@receiver(post_delete)
def intent_changed(sender, **kwargs):
    """Queue a refresh (after commit) of the nodes whose document may change."""
    if sender not in WATCHED:
        return
    instance = kwargs.get("instance")
    pool_id = getattr(instance, "node_pool_id", None) if sender is Segment else None
    services.queue_refresh(pool_ids=[pool_id] if pool_id else None)
