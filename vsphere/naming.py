"""Names and markers of what Enclave makes in vCenter: VMs, guests' host names, port groups.

A leaf that needs no Django app loaded (the simulator tests and benchmarks import it): a cluster is
anything with the VirtualCluster fields these read.
"""

from netpolicy.choices import NodeRole as GroupRole
from vsphere.choices import NodeRole as VMRole

TENANT_PORTGROUP_PREFIX = "enclave-"
# A VM's role as the tenant's role groups (login, manager, worker) name it.
GROUP_ROLE = {VMRole.LOGIN: GroupRole.LOGIN, VMRole.MANAGER: GroupRole.MANAGER, VMRole.WORKER: GroupRole.WORKER}


def vm_base(cluster) -> str:
    """What every VM name of the cluster starts with; two clusters share VM names exactly when they share it."""
    return f"{cluster.tenant.slug}-{cluster.name}"


def node_names(cluster) -> list[tuple[str, str]]:
    """(role, VM name) of every node; names are deterministic so retries find the same VMs."""
    base = vm_base(cluster)
    names = [("login", f"{base}-login")] if cluster.login_node else []
    names.append(("mgr", f"{base}-mgr"))
    names += [("w", f"{base}-w{i:02d}") for i in range(1, cluster.worker_count + 1)]
    return names


def cluster_marker(cluster) -> str:
    """The Enclave id vCenter objects of this cluster carry."""
    return f"enclave:cluster:{cluster.pk}"


def node_marker(cluster_marker: str, node_name: str) -> str:
    """Marker of a cluster's VM: the cluster's Enclave id plus the node name."""
    return f"{cluster_marker}/{node_name}"


def guest_domain(cluster, settings) -> str:
    """The tenant's DNS domain under the site's (RFC 8375-style .internal when the site has none)."""
    return f"{cluster.tenant.slug}.{settings.dns_domain or 'internal'}"


def host_name(cluster, vm_name: str) -> str:
    """The guest's host name: the cluster's name and the node's suffix, one DNS label (<= 63)."""
    suffix = vm_name.rsplit("-", 1)[-1]
    return f"{cluster.name[: 62 - len(suffix)].rstrip('-')}-{suffix}"


def portgroup_name(cluster, vlan: int) -> str:
    """One port group per tenant VLAN segment."""
    return f"{TENANT_PORTGROUP_PREFIX}{cluster.tenant.slug}-vlan{vlan}"


def portgroup_marker(cluster, vlan: int) -> str:
    """The Enclave id of a tenant segment's port group."""
    return f"enclave:segment:{cluster.tenant.slug}:vlan{vlan}"
