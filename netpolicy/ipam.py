"""Host addresses of cluster VMs in their segment: taken with approval or resize, released with a cooldown.

PostgreSQL holds the plan: an address is unique per segment (released ones too, until their cooldown
ends) and a trigger keeps it a host of the segment's subnet, never its network, broadcast or gateway.
Allocations of one segment are serialized by locking the segment row.
"""

import datetime
import ipaddress
from collections.abc import Iterable, Iterator

from django.db import transaction
from django.utils import timezone

from audit.services import record
from core.errors import Conflict
from netpolicy import propagation
from netpolicy.models import Address, AddressState, Segment, SiteSettings

# (node name, node role, NIC role) of one NIC that needs an address
Wanted = tuple[str, str, str]


def site_settings() -> SiteSettings:
    """The site's one settings row, or the defaults (unsaved) before an admin first changes them."""
    return SiteSettings.objects.filter(pk=1).first() or SiteSettings(pk=1)


def site_server_addresses(settings: SiteSettings) -> set[str]:
    """Single addresses of the site's DNS, NTP and NFS servers (never handed to a VM)."""
    found = set()
    for text in [*settings.dns_servers, *settings.ntp_servers, *settings.nfs_servers]:
        net = ipaddress.ip_network(str(text), strict=False)
        if net.num_addresses == 1:
            found.add(str(net.network_address))
    return found


def _free_hosts(subnet: str, taken: set[str]) -> Iterator[str]:
    """Host addresses of the subnet not taken, lowest first (network and broadcast never appear)."""
    for host in ipaddress.ip_network(subnet).hosts():
        text = str(host)
        if text not in taken:
            yield text


def _expire_cooldown(segment: Segment, settings: SiteSettings) -> None:
    """Forget released addresses whose cooldown has ended, so they can be handed out again."""
    cutoff = timezone.now() - datetime.timedelta(minutes=settings.address_cooldown_minutes)
    Address.objects.filter(segment=segment, state=AddressState.COOLING, released_at__lte=cutoff).delete()


def reserve(cluster, segment: Segment, wanted: Iterable[Wanted], exclude: Iterable[str] = ()) -> list[Address]:
    """Give every wanted NIC of the cluster an address of the segment (idempotent); Conflict when full."""
    wanted = list(wanted)
    with transaction.atomic():
        segment = Segment.objects.select_for_update().get(pk=segment.pk)  # one allocator per segment
        settings = site_settings()
        _expire_cooldown(segment, settings)
        have = {(a.node_name, a.nic): a for a in Address.objects.filter(cluster=cluster, state=AddressState.ALLOCATED)}
        missing = [w for w in wanted if (w[0], w[2]) not in have]
        if not missing:
            return [have[(name, nic)] for name, _role, nic in wanted]
        taken = set(Address.objects.filter(segment=segment).values_list("address", flat=True))
        taken |= set(exclude) | site_server_addresses(settings) | {segment.gateway}
        free = _free_hosts(segment.subnet, taken)
        rows = []
        for name, role, nic in missing:
            address = next(free, None)
            if address is None:
                raise Conflict(f"Segment {segment} ({segment.subnet}) has no free address left: the cluster needs "
                               f"{len(missing)}, {len(rows)} were free.")  # fmt: skip
            rows.append(Address(segment=segment, address=address, cluster=cluster, node_name=name, role=role, nic=nic))
        Address.objects.bulk_create(rows)
        record("addresses.allocate", cluster, tenant=cluster.tenant_id,
               message=", ".join(f"{a.node_name}/{a.nic} {a.address}" for a in rows))  # fmt: skip
        propagation.policy_changed({cluster.tenant_id})  # role groups (login, ...) hold these addresses
        have.update({(a.node_name, a.nic): a for a in rows})
    return [have[(name, nic)] for name, _role, nic in wanted]


def release(cluster, keep: Iterable[Wanted] = ()) -> int:
    """Release the cluster's addresses except those still wanted; they cool down before reuse."""
    keep = {(name, nic) for name, _role, nic in keep}
    with transaction.atomic():
        held = Address.objects.select_for_update().filter(cluster=cluster, state=AddressState.ALLOCATED)
        gone = [a for a in held if (a.node_name, a.nic) not in keep]
        if not gone:
            return 0
        Address.objects.filter(pk__in=[a.pk for a in gone]).update(
            state=AddressState.COOLING, released_at=timezone.now()
        )
        record("addresses.release", cluster, tenant=cluster.tenant_id,
               message=", ".join(f"{a.node_name}/{a.nic} {a.address}" for a in gone))  # fmt: skip
        propagation.policy_changed({cluster.tenant_id})
    return len(gone)


def held(cluster) -> list[Address]:
    """The cluster's allocated addresses, by node and NIC."""
    return list(Address.objects.filter(cluster=cluster, state=AddressState.ALLOCATED).order_by("node_name", "nic"))
