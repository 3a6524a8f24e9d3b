"""Enumerations of the vsphere app."""

from django.db import models


class LinkType(models.TextChoices):
    INFINIBAND = "infiniband", "InfiniBand"
    ETHERNET = "ethernet", "Ethernet"


class PFSource(models.TextChoices):
    DISCOVERED = "discovered", "Discovered from vCenter"
    MANUAL = "manual", "Entered by an admin"


class StepStatus(models.TextChoices):
    STARTED = "started", "Started"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"
    SKIPPED = "skipped", "Skipped"
    INFO = "info", "Info"


class PlanStatus(models.TextChoices):
    QUEUED = "queued", "Asking vCenter"
    READY = "ready", "Ready"
    FAILED = "failed", "No plan"


class NodeRole(models.TextChoices):
    LOGIN = "login", "Login node"
    MANAGER = "mgr", "Slurm manager"
    WORKER = "w", "Worker"
