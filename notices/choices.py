"""Enumerations of the notices app."""

from django.db import models


class NoticeKind(models.TextChoices):
    """What a notice is about; users turn e-mail on or off per kind (in-app notices always appear)."""

    ENDORSE = "endorse", "A member's request waits for my endorsement"
    APPROVE = "approve", "A request or segment waits for my approval (site admins)"
    EXTENSION = "extension", "A lease extension waits for my decision"
    DIGEST = "digest", "A digest of many pending approvals (site admins)"
    CLUSTER = "cluster", "My cluster request changed state"
    SEGMENT = "segment", "My tenant's segment was approved or rejected"
    LEASE = "lease", "A lease is about to expire, or an extension was decided"
