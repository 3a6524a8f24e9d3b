"""In-app notices, e-mail preferences, and the record of notices sent only once.

Notices are messages about intent, not intent: marking them read and pruning old ones are not audited
(as a session or a token's last use is not); the changes they tell of are, and so are preferences.
"""

from django.conf import settings
from django.db import models

from notices.choices import NoticeKind


class Notice(models.Model):
    """One in-app notice to one user (listed on the home page)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=16, choices=NoticeKind.choices)
    subject = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    url = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    read = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["user", "-created"], name="notice_user_recent")]

    def __str__(self):
        return self.subject


class Preference(models.Model):
    """Whether a user gets e-mail for one kind of notice (no row: yes)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_preferences")
    kind = models.CharField(max_length=16, choices=NoticeKind.choices)
    email = models.BooleanField(default=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="notice_preference_unique")]

    def __str__(self):
        return f"{self.user} {self.kind}: {'e-mail' if self.email else 'in-app only'}"


class SentOnce(models.Model):
    """A notice that must go out once only (e.g. a lease warning), keyed by what it was about."""

    key = models.CharField(max_length=200, unique=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.key
