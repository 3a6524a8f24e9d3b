"""vCenter endpoints, discovered inventory (SR-IOV PFs, GPUs, passthrough devices, DPUs), assignments, step log."""

from django.contrib.postgres.constraints import ExclusionConstraint
from django.contrib.postgres.fields import RangeOperators
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q, Sum
from django.db.models.functions import Coalesce

from core.crypto import EncryptedTextField
from core.secrets import SecretPathError, secret_path  # noqa: F401 - vsphere.services names them here
from tenants.models import VirtualCluster
from vsphere.choices import DeviceKind, DeviceMode, LinkType, PFSource, PlanStatus, StepStatus

pci_id = RegexValidator(r"\A[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]\Z", "Use a PCI id like 0000:3b:00.0.")
FIRMWARE_MAX_VFS = 127  # ConnectX firmware limit of NUM_OF_VFS


class VCenter(models.Model):
    """A vCenter Enclave realizes clusters on; TLS is verified unless the lab switch is on."""

    name = models.CharField(max_length=63, unique=True)
    host = models.CharField(max_length=255)
    port = models.PositiveIntegerField(default=443)
    username = models.CharField(max_length=150)
    password = EncryptedTextField(blank=True, help_text="Encrypted at rest; or use password_file")
    password_file = models.CharField(max_length=500, blank=True, help_text="Path of a secret file")
    verify_tls = models.BooleanField(default=True)
    ca_bundle = models.CharField(max_length=500, blank=True, help_text="PEM file of trusted CAs")
    insecure = models.BooleanField(default=False, help_text="Lab only: skip TLS verification")
    datacenter = models.CharField(max_length=80)
    compute_cluster = models.CharField(max_length=80)
    template = models.CharField(max_length=80)
    dvs_name = models.CharField(max_length=80, default="enclave-sriov")
    uplink_pnic = models.CharField(max_length=32, default="vmnic2")
    management_network = models.CharField(
        max_length=80, blank=True,
        help_text="The one network besides the tenant's that cluster VMs get a NIC on (blank: none)",
    )  # fmt: skip
    management_isolation = models.TextField(
        blank=True, help_text="How the management network keeps tenants apart (shown on the site's page)"
    )
    inventory = models.JSONField(default=dict, blank=True, help_text="Last discovery: datastores, switches, ...")
    last_discovery = models.DateTimeField(null=True, blank=True)
    discovery_error = models.TextField(blank=True)
    nsx = models.OneToOneField(
        "nsx.NsxManager", null=True, blank=True, on_delete=models.SET_NULL, related_name="vcenter",
        help_text="The site's NSX Manager, if one is registered",
    )  # fmt: skip

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~Q(verify_tls=True, insecure=True), name="vcenter_insecure_means_no_verify"
            )
        ]

    def __str__(self):
        return self.name

    @property
    def skips_tls_verification(self) -> bool:
        """Whether connections skip certificate checks (shown prominently in the UI)."""
        return self.insecure or not self.verify_tls

    def secret(self) -> str:
        """The password, from the encrypted column or the secret file (checked again when read)."""
        if self.password_file:
            return secret_path(self.password_file).read_text().strip()
        return self.password

    def ca_bundle_path(self) -> str | None:
        """The CA bundle to verify vCenter's certificate against, if any (checked again when used)."""
        return str(secret_path(self.ca_bundle)) if self.ca_bundle else None


class Placement(models.Model):
    """Where an approved cluster runs on vSphere: its vCenter and its segment, stored by the approval.

    vsphere owns it because vsphere places clusters: tenants (below vsphere and netpolicy) holds only the
    cluster's site kind and asks the realizer registry (tenants.realizers) for the rest.
    """

    cluster = models.OneToOneField(VirtualCluster, primary_key=True, on_delete=models.CASCADE, related_name="placement")
    site = models.ForeignKey(VCenter, null=True, blank=True, on_delete=models.PROTECT, related_name="placements")
    segment = models.ForeignKey(
        "netpolicy.Segment", null=True, blank=True, on_delete=models.PROTECT, related_name="placements"
    )
    # naming.vm_base(): every VM name of the cluster starts with it, so two placed clusters must never share it
    # (one tenant's cluster name could otherwise take another tenant's VMs). A retired or rejected cluster's is
    # cleared by the next claim of the same base (vsphere.placement.vm_names), whatever path retired it.
    vm_base = models.CharField(max_length=127, null=True, blank=True, editable=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["vm_base"], name="placement_vm_base_unique")]

    def __str__(self):
        return f"cluster {self.cluster_id} on vCenter {self.site_id}, segment {self.segment_id}"


def placement_of(cluster: VirtualCluster) -> Placement:
    """The cluster's placement; an unsaved empty one while it has none (select_related("placement") saves the query)."""
    try:
        return cluster.placement
    except Placement.DoesNotExist:
        return Placement(cluster_id=cluster.pk)


class Host(models.Model):
    """An ESXi host of the vCenter's compute cluster."""

    vcenter = models.ForeignKey(VCenter, on_delete=models.CASCADE, related_name="hosts")
    name = models.CharField(max_length=255)
    compute_cluster = models.CharField(max_length=80)
    discovered = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["vcenter", "name"], name="host_unique_per_vcenter")]

    def __str__(self):
        return self.name


class PhysicalFunction(models.Model):
    """An SR-IOV PF (one port of a card): capacity is inventory, changed only with host reboots."""

    host = models.ForeignKey(Host, on_delete=models.CASCADE, related_name="pfs")
    pci_id = models.CharField(max_length=12, validators=[pci_id])
    pnic = models.CharField(max_length=32)
    model = models.CharField(max_length=80, blank=True)
    port = models.PositiveSmallIntegerField(default=1)
    link_type = models.CharField(max_length=16, choices=LinkType.choices, default=LinkType.INFINIBAND)
    # NUM_OF_VFS covers the card's enabled VFs plus one (clean), so it is at least 1 and a port enables fewer.
    firmware_num_vfs = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(FIRMWARE_MAX_VFS)], help_text="NUM_OF_VFS of the card"
    )
    max_vfs = models.PositiveSmallIntegerField(
        validators=[MaxValueValidator(FIRMWARE_MAX_VFS - 1)], help_text="VFs the driver enables on this port (max_vfs)"
    )
    source = models.CharField(max_length=16, choices=PFSource.choices, default=PFSource.MANUAL)

    class Meta:
        ordering = ["host__name", "pci_id"]
        constraints = [
            models.UniqueConstraint(fields=["host", "pci_id"], name="pf_unique_per_host"),
            models.CheckConstraint(condition=Q(max_vfs__lt=models.F("firmware_num_vfs")), name="pf_vf_below_firmware"),
        ]

    def __str__(self):
        return f"{self.host}/{self.pci_id}"

    @property
    def card(self) -> str:
        """The card this port belongs to (PCI domain:bus:device)."""
        return self.pci_id.rsplit(".", 1)[0]

    def clean(self):
        """Firmware NUM_OF_VFS must be at least the card's enabled VFs plus one (for the PF)."""
        siblings = PhysicalFunction.objects.filter(host=self.host_id, pci_id__startswith=self.card + ".")
        enabled = (siblings.exclude(pk=self.pk).aggregate(n=Sum("max_vfs"))["n"] or 0) + self.max_vfs
        if self.firmware_num_vfs < enabled + 1:
            raise ValidationError(
                {"firmware_num_vfs": f"NUM_OF_VFS must be at least {enabled + 1}: the card enables {enabled} VFs"}
            )


class VFAssignment(models.Model):
    """One VF of a PF taken by one node of a cluster; slot < PF.max_vfs is enforced by a trigger."""

    pf = models.ForeignKey(PhysicalFunction, on_delete=models.PROTECT, related_name="assignments")
    slot = models.PositiveSmallIntegerField()
    cluster = models.ForeignKey(VirtualCluster, on_delete=models.CASCADE, related_name="vf_assignments")
    node_name = models.CharField(max_length=120)
    # Set by the fabrics app at reservation from its fabric's VF GUID range: the VF's port on the fabric.
    port_guid = models.CharField(
        max_length=18, null=True, blank=True, unique=True, validators=[RegexValidator(r"\A0x[0-9a-f]{16}\Z")]
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pf", "slot"]
        constraints = [
            models.UniqueConstraint(fields=["pf", "slot"], name="vf_slot_unique"),
            models.UniqueConstraint(fields=["cluster", "node_name", "pf"], name="vf_one_per_node_and_pf"),
        ]

    def __str__(self):
        return f"{self.pf} VF{self.slot} -> {self.node_name}"


class OperationLog(models.Model):
    """One reconciler step of a cluster, shown as live progress; also the write-ahead journal."""

    cluster = models.ForeignKey(VirtualCluster, on_delete=models.CASCADE, related_name="operations")
    generation = models.PositiveIntegerField()
    key = models.CharField(max_length=160)
    step = models.TextField()
    status = models.CharField(max_length=16, choices=StepStatus.choices)
    message = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["cluster", "key"], name="oplog_cluster_key")]

    def __str__(self):
        return f"{self.cluster_id} {self.status} {self.step}"


class PlanPreview(models.Model):
    """A dry run of one cluster on vCenter, computed by the worker: pages and the API never call vCenter."""

    cluster = models.ForeignKey(VirtualCluster, on_delete=models.CASCADE, related_name="plan_previews")
    generation = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=PlanStatus.choices, default=PlanStatus.QUEUED)
    vcenter = models.CharField(max_length=63, blank=True)
    changes = models.JSONField(default=list, blank=True, help_text='[{"kind", "target", "detail"}]')
    error = models.TextField(blank=True)
    requested = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["cluster", "generation", "-id"], name="plan_cluster_generation")]

    def __str__(self):
        return f"plan of {self.cluster_id} (generation {self.generation}): {self.status}"


# ---------------------------------------------------------------- devices beyond SR-IOV (issue 16)

name_grammar = RegexValidator(r"\A[A-Za-z0-9][A-Za-z0-9_.:+-]{0,63}\Z", "Use letters, digits and _ . : + - (1-64).")


class HostFeatures(models.Model):
    """What a host can do for VMs beyond its devices: PVRDMA readiness, ENS and DPU offload on the site switch.

    Discovered from vCenter (advanced option Net.PVRDMAVmknic, the "pvrdma" firewall ruleset, the host's
    proxy switch for the site's switch); a host without a row can do none of it.
    """

    host = models.OneToOneField(Host, on_delete=models.CASCADE, related_name="features")
    pvrdma_vmknic = models.CharField(max_length=32, blank=True, help_text="VMkernel adapter tagged for PVRDMA")
    pvrdma_vmknic_exists = models.BooleanField(default=False, help_text="The tagged adapter exists on the host")
    pvrdma_firewall = models.BooleanField(default=False, help_text="The pvrdma firewall ruleset is enabled")
    ens = models.BooleanField(default=False, help_text="The site switch runs the enhanced data path (ENS) here")
    network_offload = models.BooleanField(default=False, help_text="The site switch offloads to a DPU here")
    discovered = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"features of {self.host}"

    @property
    def pvrdma_ready(self) -> bool:
        return bool(self.pvrdma_vmknic) and self.pvrdma_vmknic_exists and self.pvrdma_firewall

    def pvrdma_problems(self) -> list[str]:
        """Why PVRDMA cannot run on this host (empty when it can)."""
        problems = []
        if not self.pvrdma_vmknic:
            problems.append("no VMkernel adapter is tagged for PVRDMA (advanced option Net.PVRDMAVmknic)")
        elif not self.pvrdma_vmknic_exists:
            problems.append(f"the adapter tagged for PVRDMA ({self.pvrdma_vmknic}) does not exist")
        if not self.pvrdma_firewall:
            problems.append("the pvrdma firewall rule is disabled")
        return problems


class DPU(models.Model):
    """A data processing unit backing one of a host's uplinks (vSphere Distributed Services Engine)."""

    host = models.ForeignKey(Host, on_delete=models.CASCADE, related_name="dpus")
    dpu_id = models.CharField(max_length=64, validators=[name_grammar])
    model = models.CharField(max_length=120, blank=True)
    pnic = models.CharField(max_length=32)
    discovered = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["host__name", "dpu_id"]
        constraints = [models.UniqueConstraint(fields=["host", "dpu_id"], name="dpu_unique_per_host")]

    def __str__(self):
        return f"{self.host}/{self.dpu_id}"


class PCIDevice(models.Model):
    """A device a host hands to VMs whole (DirectPath I/O) or shares as vGPUs; capacity is inventory."""

    host = models.ForeignKey(Host, on_delete=models.CASCADE, related_name="devices")
    pci_id = models.CharField(max_length=12, validators=[pci_id])
    kind = models.CharField(max_length=16, choices=DeviceKind.choices)
    mode = models.CharField(max_length=16, choices=DeviceMode.choices)
    vendor_id = models.PositiveIntegerField(validators=[MaxValueValidator(0xFFFF)])
    device_id = models.PositiveIntegerField(validators=[MaxValueValidator(0xFFFF)])
    vendor_name = models.CharField(max_length=120, blank=True)
    device_name = models.CharField(max_length=120, blank=True)
    memory_gib = models.PositiveIntegerField(default=0, help_text="GPU memory (framebuffer)")
    system_id = models.CharField(max_length=64, blank=True, help_text="The host's system id for DirectPath backing")
    source = models.CharField(max_length=16, choices=PFSource.choices, default=PFSource.DISCOVERED)
    discovered = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["host__name", "pci_id"]
        constraints = [
            models.UniqueConstraint(fields=["host", "pci_id"], name="pcidevice_unique_per_host"),
            models.CheckConstraint(condition=Q(mode="passthrough") | Q(kind="gpu"), name="pcidevice_only_gpus_share"),
        ]

    def __str__(self):
        return f"{self.host}/{self.pci_id}"

    @property
    def device_vendor_id(self) -> int:
        """vSphere's id of the device type: PCI device id in the upper, vendor id in the lower 16 bits."""
        return (self.device_id << 16) | self.vendor_id


class VGPUProfile(models.Model):
    """An NVIDIA vGPU profile of a GPU model; a GPU in same-size mode holds `per_gpu` of one profile."""

    vcenter = models.ForeignKey(VCenter, on_delete=models.CASCADE, related_name="vgpu_profiles")
    name = models.CharField(max_length=64, validators=[name_grammar])
    device_vendor_id = models.BigIntegerField(help_text="GPU type: PCI device id << 16 | vendor id")
    gpu_model = models.CharField(max_length=120, blank=True)
    framebuffer_gib = models.PositiveIntegerField()
    per_gpu = models.PositiveSmallIntegerField(help_text="Instances one GPU holds (GPU memory / framebuffer)")
    profile_class = models.CharField(max_length=32, blank=True)
    discovered = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["vcenter", "framebuffer_gib", "name"]
        constraints = [
            models.UniqueConstraint(fields=["vcenter", "name"], name="vgpuprofile_unique_per_vcenter"),
            models.CheckConstraint(condition=Q(per_gpu__gte=1), name="vgpuprofile_holds_one"),
        ]

    def __str__(self):
        return self.name


class DeviceAssignment(models.Model):
    """A whole device (no profile) or one vGPU instance of a GPU taken by one node of a cluster.

    PostgreSQL enforces capacity: a slot below the device's capacity (one for a whole device, the
    profile's per_gpu for a vGPU; trigger), each slot once, and one profile per GPU at a time
    (an exclusion constraint: NVIDIA's time-sliced same-size mode).
    """

    device = models.ForeignKey(PCIDevice, on_delete=models.PROTECT, related_name="assignments")
    profile = models.ForeignKey(VGPUProfile, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    slot = models.PositiveSmallIntegerField()
    cluster = models.ForeignKey(VirtualCluster, on_delete=models.CASCADE, related_name="device_assignments")
    node_name = models.CharField(max_length=120)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["device", "slot"]
        constraints = [
            models.UniqueConstraint(fields=["device", "slot"], name="device_slot_unique"),
            models.UniqueConstraint(fields=["cluster", "node_name", "device"], name="device_once_per_node"),
            ExclusionConstraint(
                name="device_one_profile_per_gpu",
                expressions=[("device", RangeOperators.EQUAL), (Coalesce("profile", 0), RangeOperators.NOT_EQUAL)],
            ),
        ]

    def __str__(self):
        what = self.profile.name if self.profile_id else "whole"
        return f"{self.device} {what}#{self.slot} -> {self.node_name}"


class NodePlacement(models.Model):
    """The host a node runs on when only some hosts can run it (devices or host features), chosen at approval.

    Kept so that every reconcile places the node on the same host: its devices and features are there.
    """

    cluster = models.ForeignKey(VirtualCluster, on_delete=models.CASCADE, related_name="node_placements")
    node_name = models.CharField(max_length=120)
    host = models.ForeignKey(Host, on_delete=models.PROTECT, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["cluster", "node_name"]
        constraints = [models.UniqueConstraint(fields=["cluster", "node_name"], name="node_placed_once")]

    def __str__(self):
        return f"{self.node_name} on {self.host}"
