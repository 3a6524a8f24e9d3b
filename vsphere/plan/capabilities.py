"""What this vSphere site can realize, from its inventory in PostgreSQL: the form's options, submit's refusals."""

from __future__ import annotations

from collections import Counter

from tenants.choices import DataPath, GpuMode, Interconnect, NetworkMode
from tenants.offers import SiteOffers
from vsphere.choices import LinkType
from vsphere.models import VCenter
from vsphere.naming import node_names
from vsphere.plan.capacity import HostCapacity, NodeNeeds, SiteCapacity, describe, role_needs, site_capacity

OVERLAY_REASON = (
    "Overlay (GENEVE) segments on vSphere need NSX, and this site has no NSX Manager registered; "
    "use a VLAN segment, or ask a site admin to register the site's NSX Manager."
)
ROLE_WORDS = {"login": "The login node", "mgr": "The Slurm manager", "w": "Each worker"}


def site_offers(vcenter: VCenter, site: SiteCapacity | None = None) -> SiteOffers:
    """Every option of the request form, offered here or explained."""
    site = site or site_capacity(vcenter)
    hosts = list(site.hosts.values())
    offers = SiteOffers(site=vcenter.name)
    offers.add("network_mode", NetworkMode.VLAN, True, "a VLAN of the site's pool per tenant")
    if vcenter.nsx is None:
        offers.add("network_mode", NetworkMode.OVERLAY, False, OVERLAY_REASON)
    else:
        offers.add("network_mode", NetworkMode.OVERLAY, True, "an NSX overlay segment per tenant, NSX's firewall")
    offers.add("interconnect", Interconnect.NONE, True, "VMXNET3 on every host")
    for interconnect, link in (
        (Interconnect.SRIOV_IB, LinkType.INFINIBAND),
        (Interconnect.SRIOV_ROCE, LinkType.ETHERNET),
    ):
        offers.add("interconnect", interconnect, *_vfs(hosts, link))
    offers.add("interconnect", Interconnect.PVRDMA, *_pvrdma(hosts))
    offers.add("interconnect", Interconnect.DIRECTPATH, *_whole(hosts, "nics", "RoCE NIC", "NIC"))
    offers.add("data_path", DataPath.STANDARD, True, "every host")
    offers.add("data_path", DataPath.ENHANCED, *_feature(hosts, "ens", "the site's switch runs the enhanced data path"))
    offers.add("data_path", DataPath.DPU, *_feature(hosts, "offload", "a DPU offloads the site's switch"))
    offers.add("gpu_mode", GpuMode.NONE, True)
    offers.add("gpu_mode", GpuMode.PASSTHROUGH, *_whole(hosts, "gpus", "GPU", "GPU"))
    offers.add("gpu_mode", GpuMode.VGPU, *_shared(site))
    for profile in site.profiles.values():
        free = sum(h.free_instances(profile) for h in hosts)
        gpus = sum(h.gpus_of_type(profile) for h in hosts)
        offers.add("vgpu_profile", profile.name, gpus > 0, f"{free} free")
        offers.vgpu_profiles.append({
            "name": profile.name, "gpu_model": profile.gpu_model, "framebuffer_gib": profile.framebuffer_gib,
            "per_gpu": profile.per_gpu, "gpus": gpus, "free": free,
        })  # fmt: skip
    return offers


def _names(hosts: list[HostCapacity]) -> str:
    return ", ".join(h.name for h in hosts)


def _vfs(hosts: list[HostCapacity], link: str) -> tuple[bool, str]:
    with_pfs = [h for h in hosts if h.vfs.get(link)]
    if not with_pfs:
        return False, f"This site has no SR-IOV {LinkType(link).label} physical functions."
    total = sum(pf.max_vfs for h in with_pfs for pf in h.vfs[link])
    return True, f"{sum(h.free_vfs(link) for h in with_pfs)} of {total} VFs free on {len(with_pfs)} host(s)"


def _pvrdma(hosts: list[HostCapacity]) -> tuple[bool, str]:
    ready = [h for h in hosts if h.pvrdma]
    if ready:
        return True, f"hosts ready for PVRDMA: {_names(ready)}"
    why = "; ".join(f"{h.name}: {', '.join(_pvrdma_problems(h))}" for h in hosts) or "no hosts"
    return False, f"No host is ready for PVRDMA ({why})."


def _pvrdma_problems(host: HostCapacity) -> list[str]:
    if host.features is None:
        return ["not discovered yet"]
    return host.features.pvrdma_problems()


def _whole(hosts: list[HostCapacity], attr: str, what: str, short: str) -> tuple[bool, str]:
    having = [h for h in hosts if getattr(h, attr)]
    if not having:
        return False, f"No {short} is enabled for DirectPath I/O at this site."
    total = sum(len(getattr(h, attr)) for h in having)
    free = sum(len(h.free(getattr(h, attr))) for h in having)
    return True, f"{free} of {total} whole {what}(s) free on {_names(having)}"


def _feature(hosts: list[HostCapacity], attr: str, what: str) -> tuple[bool, str]:
    having = [h for h in hosts if getattr(h, attr)]
    if not having:
        return False, f"No host of this site qualifies: nowhere does {what}."
    return True, f"{what} on {_names(having)}"


def _shared(site: SiteCapacity) -> tuple[bool, str]:
    having = [h for h in site.hosts.values() if h.shared]
    if not having or not site.profiles:
        return False, "No GPU is in vGPU (shared direct) mode at this site."
    gpus = sum(len(h.shared) for h in having)
    return True, f"{gpus} shared GPU(s) on {_names(having)}, {len(site.profiles)} profile(s)"


# ---------------------------------------------------------------- refusals


FIELDS = (
    ("network_mode", "Network"),
    ("interconnect", "Interconnect"),
    ("data_path", "Data path"),
    ("gpu_mode", "GPUs"),
)  # fmt: skip


def refusals(cluster, vcenter: VCenter, site: SiteCapacity | None = None) -> list[str]:
    """Why this site could never realize the request as asked (capacity taken by others aside)."""
    site = site or site_capacity(vcenter)
    offers = site_offers(vcenter, site)
    reasons = []
    for field_name, label in FIELDS:
        option = offers.get(field_name, getattr(cluster, field_name))
        if option is not None and not option.available:
            reasons.append(f"{label} {option.value}: {option.detail}")
    if cluster.gpu_mode == GpuMode.VGPU and offers.get("vgpu_profile", cluster.vgpu_profile) is None:
        known = ", ".join(p["name"] for p in offers.vgpu_profiles) or "none"
        reasons.append(f"vGPU profile {cluster.vgpu_profile!r} is not offered here (profiles: {known}).")
    if reasons:
        return reasons
    return _no_host(cluster, site) or _too_many(cluster, site)


def _no_host(cluster, site: SiteCapacity) -> list[str]:
    """Roles whose needs no single host could meet even when empty."""
    reasons = []
    for role in ("login", "mgr", "w"):
        needs = role_needs(cluster, role)
        if not needs.constrained and not needs.vf_link:
            continue
        hosts = list(site.hosts.values())
        if not any(not h.lacks(needs, site.profiles, now=False) for h in hosts):
            detail = "; ".join(f"{h.name} lacks {', '.join(h.lacks(needs, site.profiles, now=False))}" for h in hosts)
            reasons.append(f"{ROLE_WORDS[role]} needs {describe(needs)} on one host; no host has it all ({detail}).")
    return reasons


def _too_many(cluster, site: SiteCapacity) -> list[str]:
    """Totals beyond everything the site has (free or not)."""
    demand: Counter = Counter()
    for role, _name in node_names(cluster):
        needs: NodeNeeds = role_needs(cluster, role)
        demand.update({"VFs": int(bool(needs.vf_link)), "NICs": needs.nics, "GPUs": needs.gpus, "vGPUs": needs.vgpus})
    hosts = list(site.hosts.values())
    profile = site.profiles.get(cluster.vgpu_profile)
    link = role_needs(cluster, "mgr").vf_link
    supply = {
        "VFs": sum(pf.max_vfs for h in hosts for pf in h.vfs.get(link, [])) if link else 0,
        "NICs": sum(len(h.nics) for h in hosts),
        "GPUs": sum(len(h.gpus) for h in hosts),
        "vGPUs": sum(h.gpus_of_type(profile) for h in hosts) * profile.per_gpu if profile else 0,
    }
    return [
        f"The request needs {demand[what]} {what}; this site has {supply[what]} in all."
        for what in ("VFs", "NICs", "GPUs", "vGPUs")
        if demand[what] > supply[what]
    ]
