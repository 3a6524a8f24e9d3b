"""One mapping from directory groups to Enclave, used by every sign-in path and the periodic re-sync.

The directory manages only what it created: memberships marked `directory` and a staff flag it set.
Memberships granted by hand, and staff flags set by hand, are never changed here. A second call with
the same groups changes and audits nothing.
"""

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

import ldap.dn
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.context import acting_as, system_actor
from audit.services import record
from core.errors import Conflict, InvalidRequest
from identity.choices import TENANT_ACTIONS, RuleAction, Source
from identity.models import DirectoryAccount, GroupRule
from tenants import services
from tenants.choices import MembershipSource, Role
from tenants.models import Membership, Tenant
from users.models import PosixAccount

log = logging.getLogger(__name__)
MAX_GROUPS = 1000  # a directory answer above this is cut (and logged), never stored whole
MAX_GROUP_LENGTH = 255
UID_RANGE = range(1000, 2**31)
DIRECTORY = MembershipSource.DIRECTORY


@dataclass
class SyncResult:
    """What one synchronisation changed (for the login message, the task's report and tests)."""

    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # not removed, with why (a tenant's last owner)
    created_tenants: list[str] = field(default_factory=list)
    staff: bool | None = None  # the staff flag set (True) or cleared (False) by this sync
    uid: int | None = None
    errors: list[str] = field(default_factory=list)
    member_of_any: bool = False

    @property
    def changed_anything(self) -> bool:
        return bool(self.added or self.changed or self.removed or self.created_tenants or self.uid) or (
            self.staff is not None
        )


def group_key(text: str) -> str | None:
    """The one form groups and rules are compared in; None for something that is neither.

    A DN (anything with "=") is parsed as RFC 4514 and written back canonically (types and values
    lower-case, runs of spaces as one, multi-valued RDNs sorted), so only the same DN matches; any
    other text is a plain name, lower-case."""
    name = " ".join(str(text).split()).lower()
    if not name or len(name) > MAX_GROUP_LENGTH:
        return None
    if "=" not in name:
        return name
    try:
        rdns = ldap.dn.str2dn(name)
    except ldap.DECODING_ERROR:
        return None
    values = [value for rdn in rdns for _, value, _ in rdn]
    if not rdns or any(not v or not v.isprintable() for v in values):
        return None
    canonical = ldap.dn.dn2str([sorted((attr, value, 1) for attr, value, _ in rdn) for rdn in rdns])
    return canonical if len(canonical) <= MAX_GROUP_LENGTH else None


def _cn(dn_key: str) -> str | None:
    """A canonical DN's cn when its first RDN is exactly one cn (a site may opt in to match those)."""
    first = ldap.dn.str2dn(dn_key)[0]
    return group_key(first[0][1]) if len(first) == 1 and first[0][0] == "cn" else None


def group_keys(groups: Sequence[str], *, match_cn: bool = False) -> list[str]:
    """The keys rules match: each group's canonical form and, with match_cn (LDAP, where the site
    opted in), the cn of each group DN as a plain name. Never a part of a name otherwise."""
    keys: set[str] = set()
    for raw in list(groups)[:MAX_GROUPS]:
        if (key := group_key(raw)) is None:
            continue
        keys.add(key)
        if match_cn and "=" in key and (cn := _cn(key)) is not None and "=" not in cn:
            keys.add(cn)
    if len(groups) > MAX_GROUPS:
        log.warning("directory gave %d groups; the first %d were used", len(groups), MAX_GROUPS)
    return sorted(keys)


def sync_user(user, groups: Sequence[str], *, source: str, uid: int | None = None) -> SyncResult:
    """Apply the site's group rules to one user's directory groups (source: "ldap" or "oidc")."""
    keys = group_keys(groups, match_cn=source == Source.LDAP and getattr(settings, "LDAP_MATCH_GROUP_CN", False))
    rules = list(GroupRule.objects.filter(group__in=keys))
    result = SyncResult()
    with acting_as(system_actor(f"directory ({source})")), transaction.atomic():
        account, _ = DirectoryAccount.objects.select_for_update().get_or_create(user=user, defaults={"source": source})
        tenants = _tenants(rules, result)
        wanted = _wanted_roles(rules, tenants)
        _apply_memberships(user, wanted, result)
        _apply_staff(user, account, any(r.action == RuleAction.SITE_ADMIN for r in rules), result)
        if uid is not None:
            _apply_uid(user, uid, result)
        account.source, account.groups, account.synced = source, keys, timezone.now()
        account.save()
        result.member_of_any = user.is_staff or Membership.objects.filter(user=user).exists()
    if result.changed_anything or result.errors:
        log.info("directory sync of %s (%s): %s", user.username, source, result)
    return result


def _tenants(rules: list[GroupRule], result: SyncResult) -> dict[str, Tenant]:
    """The rules' tenants by slug, creating those a create_tenant rule names and that do not exist yet."""
    slugs = {r.tenant_slug for r in rules if r.action in TENANT_ACTIONS}
    found = {t.slug: t for t in Tenant.objects.filter(slug__in=slugs)}
    for rule in rules:
        if rule.create_tenant and rule.tenant_slug not in found:
            found[rule.tenant_slug] = _create_tenant(rule, result)
    return found


def _create_tenant(rule: GroupRule, result: SyncResult) -> Tenant:
    try:
        with transaction.atomic():
            tenant = services.create_tenant(rule.tenant_slug, rule.tenant_slug,
                                            f"Created when directory group {rule.group} first signed in.")  # fmt: skip
    except (IntegrityError, InvalidRequest):  # another sign-in of the same group created it first
        return Tenant.objects.get(slug=rule.tenant_slug)
    result.created_tenants.append(tenant.slug)
    return tenant


def _wanted_roles(rules: list[GroupRule], tenants: dict[str, Tenant]) -> dict[Tenant, str]:
    """Each tenant's role from the rules; owner wins over member. Rules of missing tenants grant nothing."""
    wanted: dict[Tenant, str] = {}
    for rule in rules:
        tenant = tenants.get(rule.tenant_slug)
        if rule.action in TENANT_ACTIONS and tenant is not None and wanted.get(tenant) != Role.OWNER:
            wanted[tenant] = Role.OWNER if rule.action == RuleAction.OWNER else Role.MEMBER
    return wanted


def _apply_memberships(user, wanted: dict[Tenant, str], result: SyncResult) -> None:
    memberships = Membership.objects.select_for_update(of=("self",)).filter(user=user).select_related("tenant")
    current = {m.tenant_id: m for m in memberships}
    for tenant, role in sorted(wanted.items(), key=lambda item: item[0].slug):
        membership = current.pop(tenant.pk, None)
        if membership is not None and membership.source != DIRECTORY:
            continue  # granted by hand: the directory neither changes nor removes it
        if membership is None or membership.role != role:
            try:
                services.set_membership(tenant, user, role, source=DIRECTORY)
            except Conflict as exc:  # the tenant's last owner stays one until another owner exists
                result.kept.append(f"{tenant.slug}: {exc.detail}")
                continue
            (result.added if membership is None else result.changed).append(f"{tenant.slug}:{role}")
    for membership in current.values():
        if membership.source != DIRECTORY:
            continue
        try:
            services.remove_membership(membership)
            result.removed.append(membership.tenant.slug)
        except Conflict as exc:  # the tenant's last owner stays until another owner exists
            result.kept.append(f"{membership.tenant.slug}: {exc.detail}")


def _apply_staff(user, account: DirectoryAccount, wanted: bool, result: SyncResult) -> None:
    """Set or clear is_staff, but clear only a flag the directory set."""
    if wanted == user.is_staff or (not wanted and not account.staff_from_directory):
        return
    user.is_staff, account.staff_from_directory = wanted, wanted
    user.save(update_fields=["is_staff"])
    why = "site admin by directory group" if wanted else "no longer in a site-admin directory group"
    record("user.staff", user, before={"is_staff": not wanted}, after={"is_staff": wanted}, message=why)
    result.staff = wanted


def _apply_uid(user, uid, result: SyncResult) -> None:
    """The directory's UID fills the user's POSIX account (which places it on the tenants' nodes)."""
    try:
        uid = int(uid)
    except (TypeError, ValueError):
        result.errors.append(f"the directory's UID {uid!r} is not a number")
        return
    account = PosixAccount.objects.select_for_update().filter(user=user).first()
    if account is not None and account.uid == uid:
        return
    if uid not in UID_RANGE:
        result.errors.append(f"the directory's UID {uid} is outside {UID_RANGE.start}-{UID_RANGE.stop - 1}")
    elif PosixAccount.objects.filter(uid=uid).exclude(user=user).exists():
        result.errors.append(f"UID {uid} already belongs to another account; ask a site admin")
    else:
        before = {"uid": account.uid} if account else None
        account = account or PosixAccount(user=user)
        account.uid = uid
        account.save()
        record("posix_account.update" if before else "posix_account.create", account, before=before,
               after={"uid": uid})  # fmt: skip
        result.uid = uid
    if result.errors:
        log.warning("directory sync of %s: %s", user.username, "; ".join(result.errors))
