"""What the request form, the cluster page, the API and the ready e-mail say isolates InfiniBand VFs: the truth.

The partition sentence only where the hosts are on a fabric Enclave manages; otherwise, plainly, not isolated.
"""

from enclave_agent import fabric_wire as wire

from fabrics import desired, hardening
from fabrics.models import Fabric, PartitionKey
from tenants.advice import IB_UNMANAGED
from vsphere.choices import LinkType
from vsphere.models import Host, VFAssignment, placement_of

BYPASS = "SR-IOV VF traffic (InfiniBand) bypasses the virtual switch, so the tenant's firewall does not filter it"
UNHARDENED = (" The fabric's subnet manager does not report M_Key and SM_Key protection: a tenant with root on a "
              "bare-metal node could reprogram partitions.")  # fmt: skip


def _ib_hosts(vcenter=None):
    hosts = Host.objects.filter(pfs__link_type=LinkType.INFINIBAND)
    return (hosts.filter(vcenter=vcenter) if vcenter is not None else hosts).distinct()


def site_note() -> str:
    """For the request form: whether the site's InfiniBand hosts are on fabrics Enclave manages."""
    hosts = _ib_hosts()
    total, managed = hosts.count(), hosts.filter(fabric_link__isnull=False).count()
    if not managed:
        return IB_UNMANAGED
    text = ("VF traffic bypasses the virtual switch: the tenant's firewall does not filter it; Enclave gives the "
            "tenant its own InfiniBand partition (P_Key) on the site's fabric, and its VFs are full members of it "
            "and of no other tenant's.")  # fmt: skip
    if managed < total:
        text += f" Only {managed} of {total} InfiniBand hosts are on a managed fabric: VFs elsewhere are NOT isolated."
    return text


def cluster_note(cluster) -> str | None:
    """For one cluster: its partition, fabric, state and VF GUIDs; None when no managed fabric covers it."""
    vfs = VFAssignment.objects.filter(cluster=cluster, pf__link_type=LinkType.INFINIBAND)
    rows = desired.cluster_vfs(cluster)
    if not rows:
        site = placement_of(cluster).site
        if vfs.exists() or site is None or not _ib_hosts(site).filter(fabric_link__isnull=False):
            return None
        return f"{BYPASS}: its isolation will rest on the tenant's own InfiniBand partition, taken at approval."
    fabric = Fabric.objects.only("name", "sm").get(pk=rows[0][1])
    key = PartitionKey.objects.filter(fabric=fabric, tenant_id=cluster.tenant_id, released__isnull=True).first()
    state = key.get_state_display().lower() if key else "not taken"
    text = (f"{BYPASS}: its isolation rests on the tenant's own InfiniBand partition "
            f"{key.text if key else ''} on fabric {fabric.name} ({state}), whose subnet manager Enclave programs: "
            f"the VFs (port GUIDs {', '.join(sorted(g or 'pending' for g, _ in rows))}, which Enclave sets through "
            f"each VF adapter's MAC address) are full members of it and of no other tenant's.")  # fmt: skip
    if hardening.protected(fabric.sm) is False:
        text += UNHARDENED
    unmanaged = vfs.count() - len(rows)
    if unmanaged > 0:
        text += f" {unmanaged} VFs are on hosts no managed fabric covers: those are NOT isolated."
    return text


def partition_of(cluster) -> dict | None:
    """The cluster's partition for its page: fabric, key and state (the tenant's own only)."""
    rows = desired.cluster_vfs(cluster)
    if not rows:
        return None
    key = PartitionKey.objects.select_related("fabric").filter(
        fabric_id=rows[0][1], tenant_id=cluster.tenant_id, released__isnull=True).first()  # fmt: skip
    return {"fabric": key.fabric.name if key else "", "pkey": wire.pkey_text(key.pkey) if key else "",
            "state": key.get_state_display() if key else "not taken", "message": key.message if key else "",
            "guids": sorted(g for g, _ in rows if g)}  # fmt: skip
