"""The tenants' compiled policies pushed to their port groups' traffic filters, many port groups per batch.

Cluster reconciles apply the filter of their own port group; this path re-applies every affected port
group at once when policy or its derived addresses change (netpolicy.propagation), and is what the
`vds_policy_push` benchmark measures.
"""

import logging
from dataclasses import dataclass

from netpolicy.choices import SegmentKind
from netpolicy.compiler import vds
from netpolicy.compiler.model import PolicyError
from netpolicy.compiler.vds import VdsRule
from netpolicy.ir import build_site_isolating, tenant_name
from tenants.choices import LIVE_STATES, SiteKind
from tenants.models import Tenant, VirtualCluster
from vsphere.models import VCenter
from vsphere.naming import portgroup_marker, portgroup_name
from vsphere.reconcile.batch import BatchRunner, Op, StepCallback

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PortgroupFilter:
    """One port group's wanted traffic filter."""

    portgroup: str
    marker: str
    vlan: int
    rules: tuple[VdsRule, ...]


def targets(vcenter: VCenter, tenant_ids=None) -> list[PortgroupFilter]:
    """Port groups of the live clusters on this vCenter (of these tenants), with their compiled rules."""
    clusters = VirtualCluster.objects.filter(
        placement__site=vcenter, site_kind=SiteKind.VSPHERE, state__in=LIVE_STATES, placement__segment__isnull=False
    ).exclude(placement__segment__kind=SegmentKind.OVERLAY)  # NSX's distributed firewall enforces those (nsx.realize)
    clusters = clusters.select_related("tenant", "placement__segment")
    if tenant_ids is not None:
        clusters = clusters.filter(tenant_id__in=tenant_ids)
    clusters = list(clusters)
    # One build for all; a tenant whose policy cannot be built (or is past the size bound) gets the
    # quarantine's reject-all filter, as its nodes do, and never stops the others' pushes.
    isolated = build_site_isolating(Tenant.objects.filter(pk__in={c.tenant_id for c in clusters}))
    for pk, problem in isolated.broken.items():
        log.warning("tenant %s is quarantined on its port groups: %s", pk, problem)
    site = isolated.site
    found: dict[str, PortgroupFilter] = {}
    for cluster in clusters:
        vlan = cluster.placement.segment.vlan_id
        name = portgroup_name(cluster, vlan)
        if name in found:
            continue
        try:
            rules = vds.compile_tenant(site, tenant_name(cluster.tenant_id))
        except PolicyError as exc:  # refused by lint too; the cluster's reconcile reports it as its error
            log.warning("not pushing %s: %s", name, exc)
            continue
        found[name] = PortgroupFilter(name, portgroup_marker(cluster, vlan), vlan, rules)
    return list(found.values())


def push(driver, datacenter: str, wanted: list[PortgroupFilter], on_step: StepCallback | None = None) -> list[str]:
    """Reconfigure every port group whose filter differs, in one batch; return their names.

    Port groups not created yet are left to their cluster's reconcile; foreign ones are never touched.
    """
    snap = driver.snapshot(datacenter)
    ops = []
    for target in wanted:
        found = snap.portgroups.get(target.portgroup)
        if found is None or found[0].marker != target.marker or found[0].filter_rules == target.rules:
            continue
        pg, mor = found
        version = snap.pg_config_version[target.portgroup]

        def start(results, target=target, pg=pg, mor=mor, version=version):
            return driver.portgroups.start_configure(
                mor, target.portgroup, target.marker, pg.vlan or target.vlan, version, target.rules, pg.num_ports
            )

        ops.append(Op(target.portgroup, f"apply the tenant policy to {target.portgroup}", start))
    BatchRunner(driver, on_step, workers=16).run(ops)
    return [op.key for op in ops]
