"""Network intent: id and address pools, segments, and the firewall policy model."""

import ipaddress

from django.conf import settings
from django.contrib.postgres.constraints import ExclusionConstraint
from django.contrib.postgres.fields import BigIntegerRangeField, RangeOperators
from django.contrib.postgres.indexes import OpClass
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import F, Func, Q, Value

from core.addresses import AddressError, parse_network
from netpolicy import node_pools
from netpolicy.choices import (
    DERIVED_SITE_GROUPS,
    ID_KINDS,
    IPOIB_DATAGRAM_MTU,
    PREFIX_KINDS,
    VLAN_MAX,
    VLAN_MIN,
    VNI_MAX,
    VNI_MIN,
    VXLAN_OVERHEAD,
    Action,
    Category,
    Direction,
    NodeRole,
    PoolKind,
    Protocol,
    SegmentKind,
    SegmentState,
)
from netpolicy.compiler.model import NAME_RE
from tenants.choices import DataPath
from tenants.models import Tenant, dns_label

ir_name = RegexValidator(
    NAME_RE, "Use a-z, 0-9 and single underscores, starting with a letter (at most 40 characters)."
)
# Segments in these states hold no ids or addresses.
RELEASED_STATES = [SegmentState.REJECTED, SegmentState.RETIRED]
LIVE = ~Q(state__in=RELEASED_STATES)


class CidrField(models.Field):
    """A PostgreSQL `cidr` column (strict: host bits must be zero), as text in Python."""

    description = "IPv4 or IPv6 network"

    def db_type(self, connection):
        return "cidr"

    def to_python(self, value):
        if value is None or value == "":
            return None
        try:
            return str(parse_network(str(value), canonical=False))
        except AddressError as exc:
            raise ValidationError(str(exc)) from None

    def get_prep_value(self, value):
        return None if value in (None, "") else str(value)

    def from_db_value(self, value, expression, connection):
        return value if value is None else str(value)


def int8range(lower: str, upper: str) -> Func:
    """Closed integer range of two columns, for the pool-overlap exclusion constraint."""
    return Func(F(lower), F(upper), Value("[]"), function="int8range", output_field=BigIntegerRangeField())


class Pool(models.Model):
    """A site-defined range of VLAN ids or VNIs, or a supernet subnets are carved from."""

    name = models.CharField(max_length=63, unique=True, validators=[dns_label])
    kind = models.CharField(max_length=8, choices=PoolKind.choices)
    first = models.BigIntegerField(null=True, blank=True, help_text="First id (VLAN/VNI pools)")
    last = models.BigIntegerField(null=True, blank=True, help_text="Last id (VLAN/VNI pools)")
    cidr = CidrField(null=True, blank=True, help_text="Supernet (IPv4/IPv6/CGNAT pools)")
    default_prefix_length = models.PositiveSmallIntegerField(null=True, blank=True)
    min_prefix_length = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Largest block a tenant may ask for (e.g. 22 for a /22); "
        "empty: the default prefix length. Site admins may carve larger blocks.",
    )
    routing_domain = models.CharField(max_length=63, default="default", validators=[dns_label])
    tenant = models.ForeignKey(
        Tenant, null=True, blank=True, on_delete=models.PROTECT, related_name="reserved_pools", help_text="Reserved for"
    )
    description = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["kind", "name"]
        constraints = [
            models.CheckConstraint(
                name="pool_id_range_valid",
                condition=~Q(kind__in=ID_KINDS)
                | (Q(first__isnull=False, last__isnull=False, cidr__isnull=True) & Q(first__lte=F("last"))),
            ),
            models.CheckConstraint(
                name="pool_vlan_bounds",
                condition=~Q(kind=PoolKind.VLAN) | Q(first__gte=VLAN_MIN, last__lte=VLAN_MAX),
            ),
            models.CheckConstraint(
                name="pool_vni_bounds",
                condition=~Q(kind=PoolKind.VNI) | Q(first__gte=VNI_MIN, last__lte=VNI_MAX),
            ),
            models.CheckConstraint(
                name="pool_prefix_valid",
                condition=~Q(kind__in=PREFIX_KINDS) | Q(cidr__isnull=False, first__isnull=True),
            ),
            ExclusionConstraint(
                name="pool_ids_no_overlap",
                expressions=[("kind", RangeOperators.EQUAL), (int8range("first", "last"), RangeOperators.OVERLAPS)],
                condition=Q(first__isnull=False),
            ),
            ExclusionConstraint(
                name="pool_prefixes_no_overlap",
                expressions=[
                    ("routing_domain", RangeOperators.EQUAL),
                    (OpClass("cidr", name="inet_ops"), RangeOperators.OVERLAPS),
                ],
                condition=Q(cidr__isnull=False),
            ),
        ]

    def __str__(self):
        return self.name

    @property
    def is_id_pool(self) -> bool:
        return self.kind in ID_KINDS

    @property
    def size(self) -> int:
        """Number of ids, or of default-length subnets, the pool holds."""
        if self.is_id_pool:
            return self.last - self.first + 1
        net = ipaddress.ip_network(self.cidr)
        return 2 ** (max(self.prefix_length - net.prefixlen, 0))

    @property
    def prefix_length(self) -> int:
        """Length of subnets carved by default (the supernet's own length if unset)."""
        return self.default_prefix_length or ipaddress.ip_network(self.cidr).prefixlen

    @property
    def tenant_min_prefix_length(self) -> int:
        """The shortest prefix (largest block) a tenant's own request may take from this pool."""
        return self.min_prefix_length or self.prefix_length


class Segment(models.Model):
    """A tenant's L2 network: a VLAN or overlay id, a subnet, and where it is realized."""

    tenant = models.ForeignKey(Tenant, on_delete=models.PROTECT, related_name="segments")
    name = models.CharField(max_length=63, validators=[dns_label])
    kind = models.CharField(max_length=8, choices=SegmentKind.choices)
    id_pool = models.ForeignKey(Pool, on_delete=models.PROTECT, related_name="id_segments")
    vlan_id = models.PositiveIntegerField(
        null=True, blank=True, validators=[MinValueValidator(VLAN_MIN), MaxValueValidator(VLAN_MAX)]
    )
    vni = models.PositiveIntegerField(
        null=True, blank=True, validators=[MinValueValidator(VNI_MIN), MaxValueValidator(VNI_MAX)]
    )
    prefix_pool = models.ForeignKey(Pool, on_delete=models.PROTECT, related_name="prefix_segments")
    subnet = CidrField()
    gateway = models.GenericIPAddressField()
    routing_domain = models.CharField(max_length=63, default="default")
    mtu = models.PositiveIntegerField(default=9000, validators=[MinValueValidator(1280), MaxValueValidator(65520)])
    data_path = models.CharField(max_length=16, choices=DataPath.choices, default=DataPath.STANDARD)
    vsphere_cluster = models.CharField(max_length=100, blank=True)
    state = models.CharField(max_length=16, choices=SegmentState.choices, default=SegmentState.REQUESTED)
    generation = models.PositiveIntegerField(default=1)
    observed_generation = models.PositiveIntegerField(default=0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tenant__slug", "name"]
        # A pool's used addresses are summed from this index alone (pools pages: 30 -> 14 ms at 10,000 segments).
        indexes = [models.Index(fields=["prefix_pool"], include=["subnet"], condition=LIVE,
                                name="segment_live_prefix_idx"),
                   # Requests waiting for a site admin: counted on every admin page, without a scan of every segment.
                   models.Index(fields=["id"], condition=Q(state=SegmentState.REQUESTED),
                                name="segment_requested_idx")]  # fmt: skip
        constraints = [
            models.UniqueConstraint(fields=["tenant", "name"], condition=LIVE, name="segment_name_unique_per_tenant"),
            models.UniqueConstraint(fields=["id_pool", "vlan_id"], condition=LIVE, name="segment_vlan_unique_in_pool"),
            models.UniqueConstraint(fields=["id_pool", "vni"], condition=LIVE, name="segment_vni_unique_in_pool"),
            models.CheckConstraint(
                name="segment_id_matches_kind",
                condition=(
                    Q(kind=SegmentKind.VLAN, vlan_id__isnull=False, vni__isnull=True)
                    | Q(kind=SegmentKind.OVERLAY, vni__isnull=False, vlan_id__isnull=True)
                ),
            ),
            models.CheckConstraint(
                name="segment_vlan_bounds",
                condition=Q(vlan_id__isnull=True) | Q(vlan_id__gte=VLAN_MIN, vlan_id__lte=VLAN_MAX),
            ),
            models.CheckConstraint(
                name="segment_vni_bounds", condition=Q(vni__isnull=True) | Q(vni__gte=VNI_MIN, vni__lte=VNI_MAX)
            ),
            ExclusionConstraint(
                name="segment_subnets_no_overlap",
                expressions=[
                    ("routing_domain", RangeOperators.EQUAL),
                    (OpClass("subnet", name="inet_ops"), RangeOperators.OVERLAPS),
                ],
                condition=LIVE,
            ),
        ]

    def __str__(self):
        return f"{self.tenant.slug}/{self.name}"

    @property
    def node_pool(self):
        """The Linux node pool realizing an overlay, or None: agents holds the link (netpolicy.node_pools)."""
        if "_node_pool" not in self.__dict__:
            self._node_pool = node_pools.pool_of(self)
        return self._node_pool

    @node_pool.setter
    def node_pool(self, pool) -> None:
        """Set before the service saves the segment; the service then stores the link (node_pools.link)."""
        self._node_pool = pool

    @property
    def node_pool_id(self) -> int | None:
        pool = self.node_pool
        return pool.pk if pool is not None else None

    @property
    def effective_mtu(self) -> int:
        """MTU left to guests: overlays lose the VXLAN encapsulation bytes."""
        return self.mtu - VXLAN_OVERHEAD if self.kind == SegmentKind.OVERLAY else self.mtu

    @property
    def mtu_warning(self) -> str:
        """Why this MTU would break over IPoIB in datagram mode, if it would."""
        carried = self.mtu + (VXLAN_OVERHEAD if self.kind == SegmentKind.OVERLAY else 0)
        if carried <= IPOIB_DATAGRAM_MTU:
            return ""
        limit = IPOIB_DATAGRAM_MTU - (VXLAN_OVERHEAD if self.kind == SegmentKind.OVERLAY else 0)
        return (
            f"Needs an underlay MTU of {carried}; over IPoIB datagram mode ({IPOIB_DATAGRAM_MTU}) use at most {limit}."
        )


class Service(models.Model):
    """A protocol and destination ports, as in NSX; seeded with SSH, ICMP, DHCP, DNS, NFS, Slurm."""

    name = models.CharField(max_length=40, unique=True, validators=[ir_name])
    protocol = models.CharField(max_length=8, choices=Protocol.choices)
    ports = models.CharField(
        max_length=200, blank=True, help_text="Comma-separated ports and ranges, e.g. 22,6817-6819"
    )
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class Group(models.Model):
    """Addresses a rule can name: explicit CIDRs, a segment, all the tenant's segments, a role."""

    name = models.CharField(max_length=40, validators=[ir_name])
    tenant = models.ForeignKey(Tenant, null=True, blank=True, on_delete=models.CASCADE, related_name="address_groups")
    cidrs = models.JSONField(default=list, blank=True)
    segment = models.ForeignKey(Segment, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    all_segments = models.BooleanField(default=False, help_text="Include every live segment of the tenant")
    role = models.CharField(max_length=16, choices=NodeRole.choices, blank=True)
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["tenant__slug", "name"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "name"], name="group_name_unique_in_tenant"),
            models.UniqueConstraint(fields=["name"], condition=Q(tenant__isnull=True), name="site_group_name_unique"),
        ]

    def __str__(self):
        return f"{self.tenant.slug}/{self.name}" if self.tenant_id else f"site/{self.name}"

    @property
    def derived_from(self) -> str:
        """Where the group's addresses come from when intent derives them ("" if set by hand)."""
        if self.tenant_id is None and self.name in DERIVED_SITE_GROUPS:
            return f"the site settings' {DERIVED_SITE_GROUPS[self.name].replace('_', ' ')}"
        if self.role and self.tenant_id:
            return f"the addresses of the tenant's {self.get_role_display().lower()} VMs"
        if self.all_segments and self.tenant_id:
            return "the tenant's segments"
        return ""


class FirewallPolicy(models.Model):
    """An ordered list of rules in one NSX category, owned by the site or by one tenant."""

    name = models.CharField(max_length=40, validators=[ir_name])
    tenant = models.ForeignKey(
        Tenant, null=True, blank=True, on_delete=models.CASCADE, related_name="firewall_policies"
    )
    category = models.CharField(max_length=16, choices=Category.choices)
    sequence = models.PositiveIntegerField()
    description = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["sequence", "id"]
        verbose_name_plural = "firewall policies"
        indexes = [models.Index(fields=["sequence", "id"], name="policy_order_idx")]  # a list page reads 50, not all
        constraints = [
            models.UniqueConstraint(fields=["tenant", "name"], name="policy_name_unique_in_tenant"),
            models.UniqueConstraint(fields=["name"], condition=Q(tenant__isnull=True), name="site_policy_name_unique"),
        ]

    def __str__(self):
        return f"{self.tenant.slug}/{self.name}" if self.tenant_id else f"site/{self.name}"


class FirewallRule(models.Model):
    """One rule; its id is stable, its sequence number orders it within the policy."""

    policy = models.ForeignKey(FirewallPolicy, on_delete=models.CASCADE, related_name="rules")
    name = models.CharField(max_length=100)
    sequence = models.PositiveIntegerField()
    sources = models.ManyToManyField(Group, blank=True, related_name="+")
    destinations = models.ManyToManyField(Group, blank=True, related_name="+")
    services = models.ManyToManyField(Service, blank=True, related_name="+")
    action = models.CharField(max_length=8, choices=Action.choices)
    direction = models.CharField(max_length=8, choices=Direction.choices, default=Direction.IN_OUT)
    logged = models.BooleanField(default=False)
    enabled = models.BooleanField(default=True)
    description = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["policy", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["policy", "sequence"], name="rule_sequence_unique"),
        ]

    def __str__(self):
        return f"{self.policy}/{self.sequence}:{self.name}"


@CidrField.register_lookup
class NetOverlaps(models.Lookup):
    """`subnet__net_overlaps="10.0.0.0/8"`: PostgreSQL's inet `&&` (either contains the other)."""

    lookup_name = "net_overlaps"

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"{lhs} && {rhs}::cidr", [*lhs_params, *rhs_params]


class SiteSettings(models.Model):
    """The site's shared services every tenant reaches (one row): DNS, NTP, NFS; edited by site admins."""

    dns_servers = models.JSONField(default=list, blank=True, help_text="Addresses of the site's resolvers")
    dns_domain = models.CharField(max_length=253, blank=True, help_text="Search domain handed to guests")
    ntp_servers = models.JSONField(default=list, blank=True, help_text="Addresses of the site's time servers")
    nfs_servers = models.JSONField(default=list, blank=True, help_text="Addresses or networks of NFS servers")
    address_cooldown_minutes = models.PositiveIntegerField(
        default=60, help_text="A released VM address is not handed out again for this long (ARP and DNS caches)"
    )
    # Moves with every change of a site object (services, site groups, site policies and rules, these
    # settings); nodes' desired state is compiled up to the observed one (netpolicy.propagation.site_changed).
    network_generation = models.PositiveBigIntegerField(default=1, editable=False)
    network_observed_generation = models.PositiveBigIntegerField(default=0, editable=False)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "site settings"
        constraints = [models.CheckConstraint(condition=Q(id=1), name="site_settings_single_row")]

    def __str__(self):
        return "site settings"

    @classmethod
    def ensure(cls) -> None:
        """Make the one row if it is not there yet (defaults); never changes an existing one."""
        cls.objects.bulk_create([cls(pk=1)], ignore_conflicts=True)


class AddressState(models.TextChoices):
    ALLOCATED = "allocated", "Allocated"
    COOLING = "cooling", "Released, cooling down"


class NicRole(models.TextChoices):
    """Which NIC of a VM an address belongs to (values as vsphere.specs.NicRole)."""

    PRIMARY = "primary", "Primary adapter"
    SRIOV = "sriov", "SR-IOV VF"
    PVRDMA = "pvrdma", "PVRDMA adapter"


class Address(models.Model):
    """One address of a segment held by one NIC of a cluster VM; a trigger keeps it inside the subnet."""

    segment = models.ForeignKey(Segment, on_delete=models.PROTECT, related_name="addresses")
    address = models.GenericIPAddressField()
    cluster = models.ForeignKey("tenants.VirtualCluster", on_delete=models.PROTECT, related_name="addresses")
    node_name = models.CharField(max_length=120)
    role = models.CharField(max_length=16, choices=NodeRole.choices, help_text="The VM's role (role groups hold it)")
    nic = models.CharField(max_length=16, choices=NicRole.choices, default=NicRole.PRIMARY)
    state = models.CharField(max_length=16, choices=AddressState.choices, default=AddressState.ALLOCATED)
    released_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["segment", "address"]
        constraints = [
            # Cooling rows keep their address too: nobody gets it before the cooldown ends.
            models.UniqueConstraint(fields=["segment", "address"], name="address_unique_in_segment"),
            models.UniqueConstraint(
                fields=["cluster", "node_name", "nic"], condition=Q(state="allocated"), name="address_one_per_nic"
            ),
            models.CheckConstraint(
                name="address_released_when_cooling",
                condition=(
                    Q(state="allocated", released_at__isnull=True) | Q(state="cooling", released_at__isnull=False)
                ),
            ),
        ]

    def __str__(self):
        return f"{self.address} ({self.node_name} {self.nic})"
