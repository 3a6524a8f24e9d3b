"""The one way notices go out: an in-app row per user now, e-mail after the transaction commits."""

import datetime
from collections.abc import Callable

from django.conf import settings
from django.core.mail import send_mass_mail
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.services import record, snapshot
from notices.choices import NoticeKind
from notices.models import Notice, Preference, SentOnce

# Which of some users (ids) belong to a tenant: the tenants app (above notices) answers, registered from its
# AppConfig.ready(). Until something registers, a tenant's notice reaches the site admins only (fail closed).
TENANT_MEMBERS: dict[str, Callable[[object, list[int]], set[int]]] = {}


def notify(users, kind: str, subject: str, body: str, url: str = "", email: bool = True, *, about) -> int:
    """Tell each user (in-app always; e-mail unless they turned this kind off or `email` is False).

    `about` is the tenant whose objects the words are built from (None: the site's). Only that tenant's
    members and the site admins are told: a notice's text is never rendered for anyone else, whatever a
    caller passes (core.viewer_text's rule for text that is stored before anyone reads it).
    """
    unique = _readers({u.pk: u for u in users if u is not None and u.is_active}, about)
    if not unique:
        return 0
    link = settings.PORTAL_URL.rstrip("/") + url if url else ""
    text = body + (f"\nDetails: {link}\n" if link else "")
    Notice.objects.bulk_create(
        [Notice(user_id=pk, kind=kind, subject=subject[:200], body=text, url=url[:300]) for pk in unique]
    )
    if email:
        muted = set(
            Preference.objects.filter(user__in=list(unique), kind=kind, email=False).values_list("user_id", flat=True)
        )
        mails = [(f"[Enclave] {subject}", text, settings.DEFAULT_FROM_EMAIL, [u.email])
                 for pk, u in unique.items() if u.email and pk not in muted]  # fmt: skip
        if mails:
            transaction.on_commit(lambda: send_mass_mail(mails, fail_silently=True))
    return len(unique)


def _readers(users: dict, about) -> dict:
    """Of these users, the site admins and (for a tenant's notice) that tenant's members (one query)."""
    members: set[int] = set()
    if about is not None and any(not u.is_staff for u in users.values()):
        members = members.union(*(answer(about, list(users)) for answer in list(TENANT_MEMBERS.values())))
    return {pk: u for pk, u in users.items() if u.is_staff or pk in members}


def once(key: str) -> bool:
    """Claim `key` for a notice sent only once: True the first time, False ever after (even concurrently)."""
    try:
        with transaction.atomic():
            SentOnce.objects.create(key=key[:200])
    except IntegrityError:
        return False
    return True


def email_preferences(user) -> dict[str, bool]:
    """Whether the user gets e-mail for each kind (absent rows mean yes)."""
    chosen = dict(Preference.objects.filter(user=user).values_list("kind", "email"))
    return {kind: chosen.get(kind, True) for kind in NoticeKind.values}


def set_email_preferences(user, wanted: dict[str, bool]) -> dict[str, bool]:
    """Store the user's e-mail choice per kind; audited."""
    with transaction.atomic():
        for kind in NoticeKind.values:
            if kind not in wanted:
                continue
            pref, created = Preference.objects.select_for_update().get_or_create(
                user=user, kind=kind, defaults={"email": wanted[kind]}
            )
            if not created and pref.email == wanted[kind]:
                continue
            before = None if created else snapshot(pref)
            pref.email = wanted[kind]
            pref.save(update_fields=["email"])
            record("notice_preference.update", pref, before=before, after=snapshot(pref))
    return email_preferences(user)


def recent(user, limit: int = 5):
    """The user's latest in-app notices (one query)."""
    return list(Notice.objects.filter(user=user).only("subject", "url", "created", "kind", "read")[:limit])


def unread_count(user) -> int:
    return Notice.objects.filter(user=user, read__isnull=True).count()


def mark_all_read(user) -> int:
    """Mark every unread notice of the user read; return how many."""
    return Notice.objects.filter(user=user, read__isnull=True).update(read=timezone.now())


def mark_read(notice: Notice) -> Notice:
    """Mark one notice read (reading is the user's own bookkeeping: not audited, as mark_all_read)."""
    Notice.objects.filter(pk=notice.pk, read__isnull=True).update(read=timezone.now())
    notice.refresh_from_db()
    return notice


def settle(url: str, kinds) -> int:
    """Mark read every unread notice of these kinds about `url`: someone acted on it, nothing waits any more."""
    if not url:
        return 0
    return Notice.objects.filter(url=url[:300], kind__in=list(kinds), read__isnull=True).update(read=timezone.now())


def prune(days: int | None = None) -> int:
    """Delete notices older than the retention period (settings.NOTICE_RETENTION_DAYS), read or not."""
    days = settings.NOTICE_RETENTION_DAYS if days is None else days
    cutoff = timezone.now() - datetime.timedelta(days=days)
    return Notice.objects.filter(created__lt=cutoff).delete()[0]
