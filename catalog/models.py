"""Catalog items, their immutable versions, and which version each cluster request came from."""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from catalog.choices import Visibility
from tenants.models import Tenant, VirtualCluster, dns_label


class CatalogItem(models.Model):
    """A vetted offering ("MPI cluster (GROMACS, SR-IOV IB)"): who sees it; its content lives in versions."""

    slug = models.CharField(max_length=63, unique=True, validators=[dns_label])
    visibility = models.CharField(max_length=16, choices=Visibility.choices, default=Visibility.ALL)
    tenants = models.ManyToManyField(Tenant, blank=True, related_name="catalog_items")
    active = models.BooleanField(default=True, help_text="Retired items cannot be requested; clusters keep theirs")
    current = models.ForeignKey("CatalogItemVersion", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self):
        return self.slug


class CatalogItemVersion(models.Model):
    """What an item offered from one change to the next; PostgreSQL refuses to change or delete a version."""

    item = models.ForeignKey(CatalogItem, on_delete=models.PROTECT, related_name="versions")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=100)
    summary = models.CharField(max_length=200, blank=True)
    description = models.TextField(max_length=8000, blank=True, help_text="What it is for and its trade-offs")
    rules = models.JSONField(default=dict, help_text="Presets, bounds and what researchers may change")
    max_lease_days = models.PositiveIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(3650)]
    )
    created = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["item", "-number"]
        constraints = [models.UniqueConstraint(fields=["item", "number"], name="catalog_version_unique")]

    def __str__(self):
        return f"{self.item.slug} v{self.number}"


class ClusterOrigin(models.Model):
    """The catalog item version a cluster request came from, and the values it was requested with."""

    cluster = models.OneToOneField(VirtualCluster, on_delete=models.CASCADE, related_name="catalog_origin")
    version = models.ForeignKey(CatalogItemVersion, on_delete=models.PROTECT, related_name="requests")
    values = models.JSONField(default=dict)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.cluster} from {self.version}"
