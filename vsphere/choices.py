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


class DeviceKind(models.TextChoices):
    GPU = "gpu", "GPU"
    NETWORK = "network", "Network adapter"
    OTHER = "other", "Other PCI device"


class DeviceMode(models.TextChoices):
    """How a host offers a device: whole to one VM (DirectPath I/O) or shared as vGPUs."""

    PASSTHROUGH = "passthrough", "DirectPath I/O (whole device)"
    VGPU = "vgpu", "NVIDIA vGPU (shared)"
