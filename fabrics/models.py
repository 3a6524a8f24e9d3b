"""InfiniBand fabrics, what is on them, tenant partition keys, and the fabric agents' credentials."""

from django.contrib.postgres.constraints import ExclusionConstraint
from django.contrib.postgres.fields import ArrayField, DateTimeRangeField, RangeOperators
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Func, Q
from enclave_agent import fabric_wire as wire

from fabrics.choices import FabricKind, PartitionState
from tenants.models import dns_label

# fabric_wire.guid's grammar, the zero GUID included, so the API's schema states all of it.
guid_validator = RegexValidator(r"\A0x(?!0{16})[0-9a-f]{16}\Z", "0x and 16 lower-case hex digits, not zero.")
PKEY_BOUNDS = [MinValueValidator(wire.PKEY_MIN), MaxValueValidator(wire.PKEY_MAX)]
MAX_VF_GUIDS = 1 << 20  # a site's VF GUID range; far more than a fabric's LID space


class Fabric(models.Model):
    """One InfiniBand subnet, its subnet manager's kind, and its P_Key pool; desired and observed state."""

    name = models.CharField(max_length=63, unique=True, validators=[dns_label])
    kind = models.CharField(max_length=8, choices=FabricKind.choices, default=FabricKind.OPENSM)
    description = models.TextField(blank=True)
    pkey_first = models.PositiveIntegerField(default=0x0100, validators=PKEY_BOUNDS)
    pkey_last = models.PositiveIntegerField(default=0x7FFE, validators=PKEY_BOUNDS)
    reserved_pkeys = ArrayField(models.PositiveIntegerField(validators=PKEY_BOUNDS), default=list, blank=True,
                                help_text="Site-reserved keys inside the range, never handed to tenants")  # fmt: skip
    cooldown_minutes = models.PositiveIntegerField(
        default=60, validators=[MaxValueValidator(7 * 24 * 60)], help_text="A released key cools down this long"
    )
    vf_guid_first = models.CharField(
        max_length=18, blank=True, validators=[guid_validator], help_text="First port GUID Enclave sets on VFs"
    )
    vf_guid_count = models.PositiveIntegerField(default=0, validators=[MaxValueValidator(MAX_VF_GUIDS)])
    generation = models.PositiveBigIntegerField(default=1)
    desired = models.JSONField(default=dict, blank=True, editable=False, help_text="The compiled desired document")
    desired_digest = models.CharField(max_length=64, blank=True, editable=False)
    applied_generation = models.PositiveBigIntegerField(default=0)
    last_seen = models.DateTimeField(null=True, blank=True)
    last_report = models.JSONField(default=dict, blank=True, editable=False)
    sm = models.JSONField(default=dict, blank=True, editable=False, help_text="The subnet manager's hardening facts")
    errors = models.TextField(blank=True)
    drift = models.TextField(blank=True, help_text="Ports whose tables differ from the desired state")
    # {port GUID: [tenant ids]}: ports two tenants' workloads use (a node pool carrying both tenants' segments,
    # a shared port a tenant claims): in no tenant partition, shown to site admins.
    conflicts = models.JSONField(default=dict, blank=True, editable=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(pkey_first__lte=models.F("pkey_last")), name="fabric_pkey_range"),
            models.CheckConstraint(
                condition=Q(pkey_first__gte=wire.PKEY_MIN, pkey_last__lte=wire.PKEY_MAX), name="fabric_pkey_bounds"
            ),  # fmt: skip
        ]

    def __str__(self):
        return self.name


class FabricHost(models.Model):
    """An ESXi host whose InfiniBand PFs are cabled to the fabric (a host is on one fabric at most)."""

    fabric = models.ForeignKey(Fabric, on_delete=models.CASCADE, related_name="host_links")
    host = models.OneToOneField("vsphere.Host", on_delete=models.CASCADE, related_name="fabric_link")

    def __str__(self):
        return f"{self.host_id} on {self.fabric_id}"


class FabricPool(models.Model):
    """A node pool whose nodes' HCA ports are on the fabric (a pool is on one fabric at most)."""

    fabric = models.ForeignKey(Fabric, on_delete=models.CASCADE, related_name="pool_links")
    pool = models.OneToOneField("agents.NodePool", on_delete=models.CASCADE, related_name="fabric_link")

    def __str__(self):
        return f"{self.pool_id} on {self.fabric_id}"


class SharedPort(models.Model):
    """A site-declared storage or service port: a full member of the default partition, of no tenant's."""

    fabric = models.ForeignKey(Fabric, on_delete=models.CASCADE, related_name="shared_ports")
    guid = models.CharField(max_length=18, validators=[guid_validator])
    description = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["fabric", "guid"]
        constraints = [models.UniqueConstraint(fields=["fabric", "guid"], name="shared_port_unique")]

    def __str__(self):
        return f"{self.guid} ({self.description or 'shared'})"


class TsTzRange(Func):
    function = "TSTZRANGE"
    output_field = DateTimeRangeField()


class PartitionKey(models.Model):
    """A tenant's partition on a fabric: held from its first IB workload there, cooling after the last."""

    fabric = models.ForeignKey(Fabric, on_delete=models.PROTECT, related_name="partitions")
    tenant = models.ForeignKey("tenants.Tenant", on_delete=models.PROTECT, related_name="+")
    pkey = models.PositiveIntegerField(validators=PKEY_BOUNDS)
    allocated = models.DateTimeField()
    released = models.DateTimeField(null=True, blank=True)
    reusable_after = models.DateTimeField(null=True, blank=True, help_text="released + the fabric's cooldown")
    state = models.CharField(max_length=16, choices=PartitionState.choices, default=PartitionState.PENDING)
    message = models.TextField(blank=True)

    class Meta:
        ordering = ["fabric", "pkey", "-allocated"]
        constraints = [
            models.UniqueConstraint(
                fields=["fabric", "tenant"], condition=Q(released__isnull=True), name="partition_one_live_per_tenant"
            ),  # fmt: skip
            models.CheckConstraint(
                condition=Q(pkey__gte=wire.PKEY_MIN, pkey__lte=wire.PKEY_MAX), name="partition_pkey_bounds"
            ),  # fmt: skip
            models.CheckConstraint(
                condition=Q(released__isnull=True) | Q(reusable_after__gte=models.F("released")),
                name="partition_cooldown_after_release",
            ),  # fmt: skip
            # A key is held (live, or cooling down) by one tenant at a time: [allocated, reusable_after)
            # never overlaps another holding of the same key; a live one runs to infinity.
            ExclusionConstraint(
                name="partition_key_one_holder",
                expressions=[
                    ("fabric", RangeOperators.EQUAL),
                    ("pkey", RangeOperators.EQUAL),
                    (TsTzRange("allocated", "reusable_after"), RangeOperators.OVERLAPS),
                ],
            ),  # fmt: skip
        ]

    def __str__(self):
        return f"{wire.pkey_text(self.pkey)} of tenant {self.tenant_id} on {self.fabric_id}"

    @property
    def text(self) -> str:
        return wire.pkey_text(self.pkey)


class FabricCredential(models.Model):
    """A fabric agent's bearer secret (hashed); rotation keeps the previous one for a grace period."""

    fabric = models.ForeignKey(Fabric, on_delete=models.CASCADE, related_name="credentials")
    credential_hash = models.CharField(max_length=64, unique=True, editable=False)
    hint = models.CharField(max_length=12, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["fabric", "-created"]

    def __str__(self):
        return f"credential {self.hint}… of fabric {self.fabric_id}"


class FabricJoinToken(models.Model):
    """A one-time secret a site admin hands to the subnet manager's host; exchanged for its credential."""

    fabric = models.ForeignKey(Fabric, on_delete=models.CASCADE, related_name="join_tokens")
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    hint = models.CharField(max_length=12, editable=False)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self):
        return f"fabric join token {self.hint}… for {self.fabric_id}"
