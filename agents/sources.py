"""Where a node's desired state comes from: tenants' overlay segments on its pool and their firewall."""

from agents.desired import TenantNetwork


def tenant_networks(pool) -> list[TenantNetwork]:
    """Tenants with an overlay segment realized on this pool (filled in by the network intent)."""
    return []


def ruleset(node, networks: list[TenantNetwork]) -> str:
    """The compiled nftables ruleset for the tenants on this node."""
    return ""
