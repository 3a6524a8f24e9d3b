"""Tenants, memberships, quotas and virtual cluster requests (the intent)."""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models

from tenants.choices import (
    BUSY_STATES,
    COMMITTED_STATES,
    LEASE_STATES,
    MAX_GPUS_PER_WORKER,
    SRIOV_INTERCONNECTS,
    ClusterState,
    DataPath,
    ExtensionState,
    GpuMode,
    Interconnect,
    MembershipSource,
    NetworkMode,
    NicType,
    Role,
    SiteKind,
    WorkloadClass,
)

# \A...\Z, never ^...$: `$` also matches before a trailing newline, and these names reach vSphere and nodes.
dns_label = RegexValidator(
    r"\A[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\Z",
    "Use 1-63 lowercase letters, digits or hyphens, starting and ending with a letter or digit.",
)


vgpu_profile_name = RegexValidator(
    r"\A[A-Za-z0-9][A-Za-z0-9_.:+-]{0,63}\Z", "Use the profile's name as the site lists it, e.g. grid_a100-20c."
)


class Tenant(models.Model):
    """A research group: the unit of isolation, quota and approval."""

    slug = models.CharField(max_length=63, unique=True, validators=[dns_label])
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    # Bumped with every change that reaches Linux nodes (segments, firewall, members); nodes'
    # desired state is compiled up to network_observed_generation (tenants.network).
    network_generation = models.PositiveBigIntegerField(default=1, editable=False)
    network_observed_generation = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["slug"]

    def __str__(self):
        return self.slug


class Membership(models.Model):
    """A user's role in a tenant."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    # Directory memberships are added, changed and removed only by identity.mapping's sync.
    source = models.CharField(max_length=16, choices=MembershipSource.choices, default=MembershipSource.LOCAL)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tenant__slug", "user__username"]
        constraints = [models.UniqueConstraint(fields=["tenant", "user"], name="membership_unique")]

    def __str__(self):
        return f"{self.user} in {self.tenant} ({self.role})"


class Quota(models.Model):
    """Upper bounds on what a tenant may hold at once."""

    tenant = models.OneToOneField(Tenant, on_delete=models.CASCADE, related_name="quota")
    max_nodes = models.PositiveIntegerField(default=16)
    max_vcpus = models.PositiveIntegerField(default=256)
    max_memory_gb = models.PositiveIntegerField(default=1024)
    max_vfs = models.PositiveIntegerField(default=16)
    max_segments = models.PositiveIntegerField(default=4)
    max_gpus = models.PositiveIntegerField(default=8, help_text="GPUs or vGPUs held at once")
    # Requests reserve their ids and block at once, before an admin has looked at them.
    max_pending_segments = models.PositiveIntegerField(
        default=2, help_text="Segment requests that may await approval at once"
    )

    def __str__(self):
        return f"quota of {self.tenant}"


class VirtualCluster(models.Model):
    """A researcher's request for a virtual HPC/ML cluster, and the intent once approved."""

    tenant = models.ForeignKey(Tenant, on_delete=models.PROTECT, related_name="clusters")
    name = models.CharField(max_length=63, validators=[dns_label])
    workload_class = models.CharField(max_length=32, choices=WorkloadClass.choices)
    worker_count = models.PositiveIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(1024)], help_text="Slurm worker nodes"
    )
    vcpus_per_node = models.PositiveIntegerField(validators=[MinValueValidator(1), MaxValueValidator(768)])
    memory_gb_per_node = models.PositiveIntegerField(validators=[MinValueValidator(1), MaxValueValidator(24576)])
    login_node = models.BooleanField(default=True)
    interconnect = models.CharField(max_length=16, choices=Interconnect.choices, default=Interconnect.NONE)
    network_mode = models.CharField(max_length=16, choices=NetworkMode.choices, default=NetworkMode.VLAN)
    data_path = models.CharField(max_length=16, choices=DataPath.choices, default=DataPath.STANDARD)
    gpu_mode = models.CharField(max_length=16, choices=GpuMode.choices, default=GpuMode.NONE)
    gpus_per_worker = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(MAX_GPUS_PER_WORKER)], help_text="GPUs (or vGPUs) per worker"
    )
    vgpu_profile = models.CharField(
        max_length=64, blank=True, validators=[vgpu_profile_name], help_text="NVIDIA vGPU profile, e.g. grid_a100-20c"
    )
    nic_type = models.CharField(
        max_length=16, choices=NicType.choices, default=NicType.VMXNET3, help_text="Primary adapter of every VM"
    )
    lease_end = models.DateField()
    justification = models.TextField(max_length=4000)

    state = models.CharField(max_length=20, choices=ClusterState.choices, default=ClusterState.DRAFT)
    status_message = models.TextField(blank=True)
    generation = models.PositiveIntegerField(default=1, help_text="Bumped on every change of intent")
    observed_generation = models.PositiveIntegerField(default=0)
    # Which kind of site realizes the cluster, set by the approval (tenants.realizers); the site and the
    # segment are the site app's placement (vsphere.Placement): the site apps depend on tenants, not back.
    site_kind = models.CharField(max_length=16, choices=SiteKind.choices, blank=True)

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="requested_clusters"
    )
    endorsed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    rejection_reason = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created"]
        indexes = [
            models.Index(fields=["-created"], name="cluster_created_idx"),  # newest first, without a sort
            # What waits for a decision, counted on every page's navigation bar and listed on the
            # approvals page: a few rows among thousands of clusters, read without a scan of them all.
            models.Index(fields=["state", "-created"], name="cluster_waiting_idx",
                         condition=models.Q(state__in=[ClusterState.SUBMITTED, ClusterState.ENDORSED])),
        ]  # fmt: skip
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "name"],
                condition=~models.Q(state="retired") & ~models.Q(state="rejected"),
                name="cluster_name_unique_per_tenant",
            ),
            models.CheckConstraint(condition=models.Q(worker_count__gte=1), name="cluster_workers_positive"),
            models.CheckConstraint(
                condition=(
                    models.Q(gpu_mode="none", gpus_per_worker=0, vgpu_profile="")
                    | models.Q(gpu_mode="passthrough", gpus_per_worker__gte=1, vgpu_profile="")
                    | (models.Q(gpu_mode="vgpu", gpus_per_worker__gte=1) & ~models.Q(vgpu_profile=""))
                ),
                name="cluster_gpu_request_consistent",
            ),  # fmt: skip
        ]

    def __str__(self):
        return f"{self.tenant.slug}/{self.name}"

    @property
    def work_pending(self) -> bool:
        """Whether a site owes work: a transition under way, or a generation of a live cluster not yet observed."""
        return self.state in BUSY_STATES or (
            self.state in COMMITTED_STATES and self.generation != self.observed_generation
        )

    @property
    def vm_count(self) -> int:
        """Workers plus the Slurm manager plus the optional login node."""
        return self.worker_count + 1 + (1 if self.login_node else 0)

    @property
    def total_vcpus(self) -> int:
        return self.vm_count * self.vcpus_per_node

    @property
    def total_memory_gb(self) -> int:
        return self.vm_count * self.memory_gb_per_node

    @property
    def uses_sriov(self) -> bool:
        return self.interconnect in SRIOV_INTERCONNECTS

    @property
    def vf_count(self) -> int:
        """One SR-IOV VF per worker and one for the manager (MPI rank 0 may run there)."""
        return self.worker_count + 1 if self.uses_sriov else 0

    @property
    def gpu_count(self) -> int:
        """GPUs (whole or vGPU instances) of all workers; the manager and login node get none."""
        return self.worker_count * self.gpus_per_worker if self.gpu_mode != GpuMode.NONE else 0


class LeaseExtensionQuerySet(models.QuerySet):
    def waiting(self):
        """Pending extensions of clusters whose lease can still move (not of those going or gone)."""
        return self.filter(state=ExtensionState.PENDING, cluster__state__in=LEASE_STATES)


class LeaseExtension(models.Model):
    """A request to move a cluster's lease past the site's maximum: needs a PI's or site admin's approval."""

    cluster = models.ForeignKey(VirtualCluster, on_delete=models.CASCADE, related_name="lease_extensions")
    lease_end = models.DateField()
    justification = models.TextField(max_length=4000)
    state = models.CharField(max_length=16, choices=ExtensionState.choices, default=ExtensionState.PENDING)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decision_reason = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    decided = models.DateTimeField(null=True, blank=True)

    objects = LeaseExtensionQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(
                fields=["cluster"], condition=models.Q(state="pending"), name="lease_extension_one_pending"
            ),
        ]

    def __str__(self):
        return f"extension of {self.cluster_id} to {self.lease_end}"
