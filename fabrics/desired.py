"""A fabric's desired state compiled from intent: keys taken and released, VF GUIDs set, generation moved.

`sync()` runs inside the transaction that changed intent (approval, resize, a VF release, a segment, a
node's ports, an admin's edit): it reads every claim of the fabric, takes a key for each tenant with a
workload there and releases the key of a tenant with none left, and stores the document with a new
generation when what it says changed (audited); the fabric agent is woken after the commit.
"""

import logging

from django.db import connection, transaction

from agents import ib_ports
from agents.models import Node
from audit.services import record
from fabrics import allocation, channel, membership
from fabrics.models import Fabric, PartitionKey
from netpolicy.models import LIVE, Segment
from tenants import network
from vsphere.choices import LinkType
from vsphere.models import VFAssignment

log = logging.getLogger(__name__)
VF_GUIDS_GIVEN = "SELECT port_guid FROM vsphere_vfassignment WHERE port_guid = ANY(%s)"


def vf_assignments(fabric: Fabric):
    """The InfiniBand VFs taken on the fabric's hosts (held until the reconcile releases them)."""
    return VFAssignment.objects.filter(pf__host__fabric_link__fabric=fabric, pf__link_type=LinkType.INFINIBAND)


def cluster_vfs(cluster) -> list[tuple[str | None, int]]:
    """(port GUID, fabric id) of the cluster's InfiniBand VFs on hosts of a managed fabric."""
    rows = VFAssignment.objects.filter(cluster=cluster, pf__link_type=LinkType.INFINIBAND,
                                       pf__host__fabric_link__isnull=False)  # fmt: skip
    return list(rows.values_list("port_guid", "pf__host__fabric_link__fabric_id"))


def claims(fabric: Fabric) -> list[membership.Claim]:
    """Every port a tenant's workload uses on the fabric: cluster VFs, and HCA ports of nodes carrying its segments."""
    found = [membership.Claim(tenant, guid, f"VF of {node}")
             for tenant, guid, node in vf_assignments(fabric).exclude(port_guid=None)
             .values_list("cluster__tenant_id", "port_guid", "node_name")]  # fmt: skip
    pools = list(fabric.pool_links.values_list("pool_id", flat=True))
    if not pools:
        return found
    tenants_by_pool: dict[int, set[int]] = {}
    segments = Segment.objects.filter(LIVE, pool_link__pool_id__in=pools).values_list("pool_link__pool_id", "tenant_id")
    for pool, tenant in segments.distinct():
        tenants_by_pool.setdefault(pool, set()).add(tenant)
    for name, pool, guid in node_ports(pools):
        found += [membership.Claim(tenant, guid, f"node {name}") for tenant in tenants_by_pool.get(pool, ())]
    return found


def node_ports(pools: list[int]) -> list[tuple[str, int, str]]:
    """(node, pool, GUID) of the HCA ports the pools' nodes report, less VF GUIDs and GUIDs two nodes report.

    A node reports its own ports, and a node's root is not trusted with anyone else's. A VF GUID it
    claimed would be taken out of the VM's own partition; a port another node reports too could be that
    node's, put into the claimer's tenants' partition, so it joins none (fail closed; the nodes' errors
    tell the site admins).
    """
    rows = Node.objects.filter(pool_id__in=pools).values_list("name", "pool_id", "ib_ports")
    ports = [(name, pool, port["guid"]) for name, pool, listed in rows for port in listed or []]
    guids = {guid for _, _, guid in ports}
    refused = vf_guids_among(guids) | ib_ports.reported_twice(guids)
    for name, _, guid in ports:
        if guid in refused:
            log.warning("node %s reports port GUID %s, which is a VF's or another node's too: not used", name, guid)
    return [port for port in ports if port[2] not in refused]


def vf_guids_among(guids: set[str]) -> set[str]:
    """Those of `guids` that belong to VFs: given to a VF, or inside any fabric's VF GUID range."""
    if not guids:
        return set()
    with connection.cursor() as cursor:  # one array parameter: an IN list of 20,000 GUIDs costs more to build
        cursor.execute(VF_GUIDS_GIVEN, [sorted(guids)])
        given = {row[0] for row in cursor.fetchall()}
    fabrics = Fabric.objects.exclude(vf_guid_first="").only("vf_guid_first", "vf_guid_count")
    spans = [allocation.vf_guids(fabric) for fabric in fabrics]
    return given | {guid for guid in guids if any(int(guid, 16) in span for span in spans)}


def sync(fabric: Fabric) -> bool:
    """Bring the fabric's keys and document in line with intent (in the caller's transaction); True if changed."""
    with transaction.atomic():
        fabric = Fabric.objects.select_for_update().get(pk=fabric.pk)
        allocation.assign_vf_guids(fabric, list(vf_assignments(fabric).filter(port_guid=None)))
        found = claims(fabric)
        wanted = {c.tenant_id for c in found}
        live = dict(PartitionKey.objects.filter(fabric=fabric, released__isnull=True).values_list("tenant_id", "pkey"))
        changed = sorted(wanted ^ set(live))
        for tenant_id in sorted(wanted - set(live)):
            live[tenant_id] = allocation.allocate(fabric, tenant_id).pkey
        for tenant_id in sorted(set(live) - wanted):
            allocation.release(fabric, tenant_id)
            del live[tenant_id]
        if changed and fabric.pool_links.exists():  # the nodes' documents name the tenants' keys
            network.network_changed(changed, listeners=False)
        shared = list(fabric.shared_ports.values_list("guid", flat=True))
        members = membership.membership(found, shared)
        doc = membership.document(fabric.name, fabric.kind, fabric.generation, live, members)
        if members.conflicts != fabric.conflicts:  # shown to site admins; the document is what changes the fabric
            Fabric.objects.filter(pk=fabric.pk).update(conflicts=members.conflicts)
        return _store(fabric, doc)


def _store(fabric: Fabric, doc: dict) -> bool:
    digest = membership.digest(doc)
    if digest == fabric.desired_digest:
        return False
    before = {"generation": fabric.generation, "partitions": len(fabric.desired.get("partitions", []))}
    generation = fabric.generation + (1 if fabric.desired_digest else 0)
    doc["generation"] = generation
    Fabric.objects.filter(pk=fabric.pk, generation=fabric.generation).update(
        generation=generation, desired=doc, desired_digest=digest
    )
    after = {"generation": generation, "partitions": len(doc["partitions"])}
    record("fabric.desired", fabric, before=before, after=after)
    fabric_id = fabric.pk
    transaction.on_commit(lambda: wake(fabric_id), robust=True)
    return True


def wake(fabric_id: int) -> None:
    """Tell a fabric agent parked on its desired state that it changed (fabrics.channel)."""
    channel.wake(fabric_id)
