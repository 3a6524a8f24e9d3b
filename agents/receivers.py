"""The one receiver left: POSIX accounts have no service (they are edited in Django admin and by
seeds), so their save and delete is the single point where member UIDs on nodes change."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from tenants.models import Membership
from tenants.network import network_changed
from users.models import PosixAccount


@receiver(post_save, sender=PosixAccount, dispatch_uid="agents-posix-account-saved")
@receiver(post_delete, sender=PosixAccount, dispatch_uid="agents-posix-account-deleted")
def posix_account_changed(sender, instance, **kwargs):
    """The account's user's tenants place its UID on their nodes."""
    network_changed(Membership.objects.filter(user_id=instance.user_id).values_list("tenant_id", flat=True))
