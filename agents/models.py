"""Node pools, their subnets of interest, nodes and one-time join tokens."""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from agents.choices import NodeStatus
from tenants.models import dns_label


class NodePool(models.Model):
    """A set of bare-metal nodes that realize the same overlay segments."""

    name = models.CharField(max_length=63, unique=True, validators=[dns_label])
    description = models.TextField(blank=True)
    multicast_group = models.GenericIPAddressField(
        protocol="IPv4", default="239.1.1.1", help_text="VXLAN BUM traffic group shared by the pool"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class SegmentPool(models.Model):
    """The node pool that realizes an overlay segment: held here, since netpolicy sits below agents."""

    segment = models.OneToOneField(
        "netpolicy.Segment", primary_key=True, on_delete=models.CASCADE, related_name="pool_link"
    )
    pool = models.ForeignKey(NodePool, on_delete=models.PROTECT, related_name="segment_links")

    def __str__(self):
        return f"{self.segment_id} on {self.pool_id}"


class PoolSubnet(models.Model):
    """An admin-defined underlay subnet of interest; each gets its own VXLAN UDP port."""

    pool = models.ForeignKey(NodePool, on_delete=models.CASCADE, related_name="subnets")
    cidr = models.CharField(max_length=43, help_text="e.g. 10.10.0.0/16")
    # Linux cannot have two VXLAN devices with one VNI on one port, hence a port per subnet.
    dstport = models.PositiveIntegerField(validators=[MinValueValidator(1024), MaxValueValidator(65535)])

    class Meta:
        ordering = ["pool", "dstport"]
        constraints = [
            models.UniqueConstraint(fields=["pool", "dstport"], name="pool_subnet_port_unique"),
            models.UniqueConstraint(fields=["pool", "cidr"], name="pool_subnet_cidr_unique"),
        ]

    def __str__(self):
        return f"{self.cidr} (udp/{self.dstport})"


class Node(models.Model):
    """A bare-metal node running enclave-agent."""

    name = models.CharField(max_length=63, unique=True, validators=[dns_label])
    pool = models.ForeignKey(NodePool, on_delete=models.PROTECT, related_name="nodes")
    address = models.GenericIPAddressField(null=True, blank=True, help_text="Underlay address; SNAT target")
    interfaces = models.JSONField(default=list, blank=True, help_text='[{"name": "em1", "address": "10.0.0.5/24"}]')
    capabilities = models.JSONField(default=dict, blank=True)
    # The node's InfiniBand HCA ports as its agent last reported them (grammar-checked: enclave_agent.fabric_wire).
    ib_ports = models.JSONField(default=list, blank=True, editable=False)
    # The desired-state schemas the node's agent reads, as it last said (enclave_agent.wire.check_reads);
    # empty: it never said (an agent older than the contract), which agents.desired counts as schema 2.
    wire_reads = models.JSONField(default=list, blank=True, editable=False)
    status = models.CharField(max_length=16, choices=NodeStatus.choices, default=NodeStatus.PENDING)
    desired_generation = models.PositiveBigIntegerField(default=1)
    # sha256 of desired_node + the pool document's digest: the document this generation names
    desired_digest = models.CharField(max_length=64, blank=True, editable=False)
    desired_node = models.TextField(blank=True, editable=False, help_text="The node's own part (JSON)")
    applied_generation = models.PositiveBigIntegerField(default=0)
    last_seen = models.DateTimeField(null=True, blank=True)
    last_report = models.JSONField(default=dict, blank=True)
    # The node's own errors; each tenant's errors are kept apart (core.viewer_text: a member reads their
    # tenants' only), and node-level text (nft's, ip's stderr) may quote any tenant, so only admins read it.
    last_error = models.TextField(blank=True)
    tenant_errors = models.JSONField(default=dict, blank=True, help_text='{"<tenant id>": ["error", ...]}')
    enrolled = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class NodeCredential(models.Model):
    """A node's bearer secret (hashed); rotation keeps the previous one valid for a grace period."""

    node = models.ForeignKey(Node, on_delete=models.CASCADE, related_name="credentials")
    credential_hash = models.CharField(max_length=64, unique=True, editable=False)
    hint = models.CharField(max_length=12, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["node", "-created"]

    def __str__(self):
        return f"credential {self.hint}… of {self.node_id}"


class JoinToken(models.Model):
    """A one-time secret an admin hands to a new node; exchanged for the node's own credential."""

    pool = models.ForeignKey(NodePool, on_delete=models.CASCADE, related_name="join_tokens")
    node_name = models.CharField(
        max_length=63,
        blank=True,
        validators=[dns_label],
        help_text="Optional: the hostname this token may enrol (re-enrol)",
    )
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    hint = models.CharField(max_length=12, editable=False)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(Node, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self):
        return f"join token {self.hint}… for {self.pool}"


class PoolDocument(models.Model):
    """What every node of a pool is sent alike, compiled once per change: tenants and ruleset."""

    pool = models.OneToOneField(NodePool, on_delete=models.CASCADE, primary_key=True, related_name="document")
    schema = models.PositiveSmallIntegerField()
    tenants = models.TextField(help_text="The document's tenants, as JSON text")
    nftables = models.TextField(help_text="The compiled ruleset, as a JSON string literal")
    digest = models.CharField(max_length=64)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"desired state of {self.pool_id}"


class TenantPart(models.Model):
    """One tenant's compiled share of a pool's document; a one-tenant change recompiles only this."""

    pool = models.ForeignKey(NodePool, on_delete=models.CASCADE, related_name="tenant_parts")
    tenant = models.ForeignKey("tenants.Tenant", on_delete=models.CASCADE, related_name="+")
    entry = models.JSONField(help_text="The tenant's document entry (all member UIDs)")
    nft = models.JSONField(help_text="netpolicy.compiler.nft.TenantPart.to_dict()")
    digest = models.CharField(max_length=64)
    # What the part read from the site (netpolicy.compiler.nft.site_refs and site_inputs): a site change
    # recompiles only the parts whose inputs it changed (agents.refresh.refresh_site).
    site_refs = models.JSONField(default=list, help_text="The services and site groups the tenant's rules name")
    site_digest = models.CharField(max_length=64, blank=True, default="")
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["pool", "tenant"], name="tenant_part_unique")]

    def __str__(self):
        return f"tenant {self.tenant_id} on pool {self.pool_id}"
