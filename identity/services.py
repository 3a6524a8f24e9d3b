"""Site admins' group rules: validated by the form, changed here in one audited transaction."""

from django.db import transaction

from audit.context import acting_as, system_actor
from audit.services import record, snapshot
from core.errors import Forbidden
from identity.models import DirectoryAccount, GroupRule
from tenants.access import is_site_admin


def create_rule(user, data: dict) -> GroupRule:
    """Add a group rule (site admins); it applies at each user's next sign-in or re-sync."""
    if not is_site_admin(user):
        raise Forbidden("Only site admins map directory groups.")
    with transaction.atomic():
        rule = GroupRule.objects.create(**data)
        record("group_rule.create", rule, after=snapshot(rule))
    return rule


def delete_rule(user, rule: GroupRule) -> None:
    """Remove a group rule; memberships it granted go at each user's next sign-in or re-sync."""
    if not is_site_admin(user):
        raise Forbidden("Only site admins map directory groups.")
    with transaction.atomic():
        record("group_rule.delete", rule, before=snapshot(rule))
        rule.delete()


def refuse_sign_in(user, source: str, why: str) -> None:
    """Audit a directory sign-in refused because its username is an account not linked to it."""
    with acting_as(system_actor(f"directory ({source})")), transaction.atomic():
        record("user.sign_in_refused", user, message=why)


def linked_kind(user) -> str:
    """What an existing account is, for a refusal's message."""
    account = DirectoryAccount.objects.filter(user=user).first()
    if account is not None:
        return f"account linked to {account.source}"
    return "local account" if user.has_usable_password() else "account without password or directory link"
