"""States of NSX objects as Enclave records them, and the kinds of objects it owns there."""

from django.db import models


class Realization(models.TextChoices):
    """What NSX's realized-state API last said of one intent (PENDING: not asked yet)."""

    PENDING = "pending", "Pending"
    IN_PROGRESS = "in_progress", "In progress"
    REALIZED = "realized", "Realized"
    ERROR = "error", "Error"


# NSX's consolidated_status values, as Enclave records them.
NSX_STATUS = {"SUCCESS": Realization.REALIZED, "IN_PROGRESS": Realization.IN_PROGRESS, "ERROR": Realization.ERROR}


class ObjectKind(models.TextChoices):
    """Policy objects Enclave creates in NSX (ids always start with Enclave's prefix)."""

    TIER1 = "tier1", "Tier-1 gateway"
    SEGMENT = "segment", "Segment"
    SERVICE = "service", "Service"
    GROUP = "group", "Group"
    POLICY = "policy", "Security policy"
    RULE = "rule", "Rule"


class CheckResult(models.TextChoices):
    """The last reachability check of a manager."""

    NEVER = "never", "Not checked yet"
    QUEUED = "queued", "Queued"
    OK = "ok", "Reachable"
    FAILED = "failed", "Failed"
