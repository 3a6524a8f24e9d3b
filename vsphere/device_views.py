"""The device page: what each host offers beyond SR-IOV (site admins), read from PostgreSQL."""

from django.http import Http404

from core.views import PageView
from tenants.access import is_site_admin
from vsphere.models import VCenter
from vsphere.plan.capabilities import site_offers
from vsphere.plan.capacity import sites_capacity


class DevicesView(PageView):
    """Per vCenter: each host's GPUs, passthrough NICs, DPUs, PVRDMA readiness and ENS, and the vGPU profiles."""

    template_name = "vsphere/devices.html"

    def get_context(self, request, **kwargs) -> dict:
        if not is_site_admin(request.user):  # a 404, as for every site-admin page a member may guess
            raise Http404("No such page.")
        sites = [
            {"vcenter": site.vcenter, "hosts": [_host_row(h) for h in site.hosts.values()],
             "offers": site_offers(site.vcenter, site)}
            for site in sites_capacity(VCenter.objects.select_related("nsx").order_by("name"))
        ]  # fmt: skip
        return {"sites": sites}


def _host_row(host) -> dict:
    def held(device):
        rows = host.taken.get(device.pk, [])
        if not rows:
            return "free"
        if rows[0].profile_id:
            return f"{len(rows)}/{rows[0].profile.per_gpu} × {rows[0].profile.name}"
        return f"whole, {rows[0].node_name}"

    return {
        "name": host.name,
        "pvrdma": host.pvrdma,
        "pvrdma_problems": host.features.pvrdma_problems() if host.features else ["not discovered yet"],
        "ens": host.ens,
        "offload": host.offload,
        "dpus": host.dpus,
        "devices": [(d, held(d)) for d in host.shared + host.gpus + host.nics],
    }
