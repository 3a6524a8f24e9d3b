"""NSX Managers (one per vCenter that has one), what Enclave applied there, and each object's realization."""

from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q

from core.crypto import EncryptedTextField
from core.secrets import secret_path
from nsx.choices import CheckResult, ObjectKind, Realization

# Policy paths and ids an admin names: they are sent to NSX inside request bodies, so a strict grammar.
POLICY_PATH = RegexValidator(
    r"\A/infra(?:/(?!\.\.?(?:/|\Z))[A-Za-z0-9_.-]{1,80}){1,12}\Z",  # no "." or ".." segment
    "Use an NSX Policy path such as /infra/tier-0s/t0 (letters, digits, '_', '.', '-').",
)
NSX_ID = RegexValidator(r"\A[A-Za-z0-9_-]{1,64}\Z", "1-64 letters, digits, '_' or '-'.")
HTTPS_URL = RegexValidator(r"\Ahttps://[A-Za-z0-9.-]{1,253}(?::[0-9]{1,5})?/?\Z",
                           "Use https://host or https://host:port (no path).")  # fmt: skip


class NsxManager(models.Model):
    """The NSX Manager of one vCenter's site: where its overlay segments and distributed firewall live."""

    url = models.CharField(max_length=300, validators=[HTTPS_URL])
    username = models.CharField(max_length=150)
    password = EncryptedTextField(help_text="Encrypted at rest")
    verify_tls = models.BooleanField(default=True, help_text="Off only in labs: shown on the site's page")
    ca_bundle = models.CharField(max_length=500, blank=True, help_text="PEM file of trusted CAs (secrets dir)")
    transport_zone_path = models.CharField(max_length=500, validators=[POLICY_PATH],
                                           help_text="The overlay transport zone tenant segments go in")  # fmt: skip
    tier0_path = models.CharField(
        max_length=500, blank=True, validators=[POLICY_PATH], help_text="The tier-0 tenants' tier-1s connect to"
    )
    domain = models.CharField(max_length=64, default="default", validators=[NSX_ID])
    check_result = models.CharField(max_length=16, choices=CheckResult.choices, default=CheckResult.NEVER)
    check_message = models.TextField(blank=True)
    checked_at = models.DateTimeField(null=True, blank=True)

    # Its vCenter holds the link (vsphere.VCenter.nsx, reverse name "vcenter"): vsphere sits above nsx.

    class Meta:
        ordering = ["vcenter__name"]

    def __str__(self):
        return f"NSX of {getattr(self, 'vcenter', None)}"  # the reverse link: None once its vCenter is gone

    def ca_bundle_path(self) -> str | None:
        """The CA bundle to verify NSX's certificate against, if any (checked again when used)."""
        return str(secret_path(self.ca_bundle)) if self.ca_bundle else None


class AppliedState(models.Model):
    """What Enclave last applied to one manager for one tenant (tenant null: the site's shared part)."""

    manager = models.ForeignKey(NsxManager, on_delete=models.CASCADE, related_name="applied")
    tenant = models.ForeignKey("tenants.Tenant", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    digest = models.CharField(max_length=64, blank=True)
    paths = models.JSONField(default=list, help_text="Policy paths Enclave owns there for this part")
    error = models.TextField(blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)
    # The tenant's network generation (the site's, for the site part) its last run compiled from: the
    # sweep finds a part whose intent moved on and whose queued run was lost.
    generation = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["manager", "tenant"], name="nsx_applied_unique_tenant"),
            models.UniqueConstraint(fields=["manager"], condition=Q(tenant=None), name="nsx_applied_unique_site"),
        ]

    def __str__(self):
        return f"{self.manager}: {'tenant ' + str(self.tenant_id) if self.tenant_id else 'site'}"


class NsxObject(models.Model):
    """One policy object Enclave owns in NSX and how far NSX realized it (shown on cluster and segment pages)."""

    manager = models.ForeignKey(NsxManager, on_delete=models.CASCADE, related_name="owned")
    tenant = models.ForeignKey("tenants.Tenant", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    segment = models.ForeignKey("netpolicy.Segment", null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="nsx_objects")  # fmt: skip
    path = models.CharField(max_length=500)
    kind = models.CharField(max_length=16, choices=ObjectKind.choices)
    state = models.CharField(max_length=16, choices=Realization.choices, default=Realization.PENDING)
    message = models.TextField(blank=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["kind", "path"]
        constraints = [models.UniqueConstraint(fields=["manager", "path"], name="nsx_object_unique_path")]
        indexes = [models.Index(fields=["manager", "tenant"], name="nsx_object_tenant")]

    def __str__(self):
        return self.path
