"""Enumerations of the netpolicy app (values shared with the pure compiler's enums)."""

from django.db import models

from netpolicy.compiler import model as ir

VLAN_MIN, VLAN_MAX = 1, 4094
VNI_MIN, VNI_MAX = 1, 2**24 - 1
CGNAT_RANGE = "100.64.0.0/10"
VXLAN_OVERHEAD = 50
IPOIB_DATAGRAM_MTU = 2044


class PoolKind(models.TextChoices):
    VLAN = "vlan", "VLAN ids"
    VNI = "vni", "VXLAN/GENEVE VNIs"
    IPV4 = "ipv4", "IPv4 supernet"
    IPV6 = "ipv6", "IPv6 supernet"
    CGNAT = "cgnat", "CGNAT range for node agents"


# Tuples, not sets: they end up in constraints, and migrations need a stable order.
ID_KINDS = (PoolKind.VLAN, PoolKind.VNI)
PREFIX_KINDS = (PoolKind.IPV4, PoolKind.IPV6, PoolKind.CGNAT)


class SegmentKind(models.TextChoices):
    VLAN = "vlan", "VLAN"
    OVERLAY = "overlay", "Overlay (VXLAN/GENEVE)"


class SegmentState(models.TextChoices):
    REQUESTED = "requested", "Requested"
    APPROVED = "approved", "Approved"
    PROVISIONING = "provisioning", "Provisioning"
    READY = "ready", "Ready"
    ERROR = "error", "Error"
    REJECTED = "rejected", "Rejected"
    RETIRED = "retired", "Retired"


class Protocol(models.TextChoices):
    TCP = ir.Protocol.TCP.value, "TCP"
    UDP = ir.Protocol.UDP.value, "UDP"
    ICMP = ir.Protocol.ICMP.value, "ICMP"
    ANY = ir.Protocol.ANY.value, "Any"


class Category(models.TextChoices):
    EMERGENCY = ir.Category.EMERGENCY.value, "Emergency"
    INFRASTRUCTURE = ir.Category.INFRASTRUCTURE.value, "Infrastructure"
    ENVIRONMENT = ir.Category.ENVIRONMENT.value, "Environment"
    APPLICATION = ir.Category.APPLICATION.value, "Application"


# Categories a tenant owner may place policies in; the first two belong to site admins.
TENANT_CATEGORIES = {Category.ENVIRONMENT, Category.APPLICATION}


class Action(models.TextChoices):
    ALLOW = ir.Action.ALLOW.value, "Allow"
    DROP = ir.Action.DROP.value, "Drop"
    REJECT = ir.Action.REJECT.value, "Reject"


class Direction(models.TextChoices):
    IN = ir.Direction.IN.value, "In"
    OUT = ir.Direction.OUT.value, "Out"
    IN_OUT = ir.Direction.IN_OUT.value, "In and out"


# Site groups whose addresses are the site settings' servers (group name -> SiteSettings field).
DERIVED_SITE_GROUPS = {"nfs_servers": "nfs_servers", "dns_servers": "dns_servers"}


class NodeRole(models.TextChoices):
    LOGIN = "login", "Login node"
    MANAGER = "manager", "Slurm manager"
    WORKER = "worker", "Worker"
