"""Enumerations of the fabrics app."""

from django.db import models


class FabricKind(models.TextChoices):
    """Which subnet manager the fabric agent drives (enclave_agent.fabric_wire.KINDS)."""

    OPENSM = "opensm", "OpenSM (partitions.conf)"
    UFM = "ufm", "NVIDIA UFM (REST API)"


class PartitionState(models.TextChoices):
    """What the fabric's last report shows of one tenant partition."""

    PENDING = "pending", "Waiting for the fabric"
    REALIZED = "realized", "Programmed"
    DEGRADED = "degraded", "Degraded (drift)"
