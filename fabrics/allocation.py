"""Partition keys per tenant and fabric, and VF port GUIDs: next-free, never two holders, cooled before reuse.

PostgreSQL holds the guarantees (fabrics.models.PartitionKey's constraints); the fabric row's lock only
keeps concurrent allocations from racing for the same lowest key and retrying.
"""

import datetime

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from enclave_agent import fabric_wire as wire

from audit.services import record, snapshot
from core.errors import Conflict, ServiceError
from fabrics.models import Fabric, PartitionKey
from vsphere.models import VFAssignment

ATTEMPTS = 3


class PoolExhausted(ServiceError):
    status_code = 409
    code = "pool_exhausted"


def live_key(fabric: Fabric, tenant_id: int) -> PartitionKey | None:
    return PartitionKey.objects.filter(fabric=fabric, tenant_id=tenant_id, released__isnull=True).first()


def held_keys(fabric: Fabric, now) -> set[int]:
    """Keys live or still cooling down at `now` (never handed out)."""
    holding = Q(released__isnull=True) | Q(reusable_after__gt=now)
    return set(PartitionKey.objects.filter(holding, fabric=fabric).values_list("pkey", flat=True))


def next_free(fabric: Fabric, now) -> int:
    """The lowest key of the fabric's range that is not reserved, held or cooling down."""
    taken = held_keys(fabric, now) | set(fabric.reserved_pkeys) | {wire.DEFAULT_PKEY}
    for candidate in range(fabric.pkey_first, fabric.pkey_last + 1):
        if candidate not in taken:
            return candidate
    raise PoolExhausted(f"Fabric {fabric.name} has no free partition key in "
                        f"{wire.pkey_text(fabric.pkey_first)}..{wire.pkey_text(fabric.pkey_last)}.")  # fmt: skip


def allocate(fabric: Fabric, tenant_id: int) -> PartitionKey:
    """The tenant's live key on the fabric, taking the lowest free one if it has none (audited)."""
    with transaction.atomic():
        fabric = Fabric.objects.select_for_update().get(pk=fabric.pk)  # one allocation per fabric at a time
        current = live_key(fabric, tenant_id)
        if current is not None:
            return current
        for attempt in range(ATTEMPTS):
            now = timezone.now()
            key = PartitionKey(fabric=fabric, tenant_id=tenant_id, pkey=next_free(fabric, now), allocated=now)
            try:
                with transaction.atomic():
                    key.save()
                break
            except IntegrityError:  # another process took it without the lock (an admin's shell): try the next
                if attempt == ATTEMPTS - 1:
                    raise Conflict(f"Could not take a partition key on fabric {fabric.name}; retry.") from None
        record("partition.allocate", key, after=snapshot(key), tenant=tenant_id)
    return key


def release(fabric: Fabric, tenant_id: int) -> PartitionKey | None:
    """End the tenant's live key on the fabric; it cools down for the fabric's cooldown before reuse."""
    with transaction.atomic():
        key = PartitionKey.objects.select_for_update().filter(fabric=fabric, tenant_id=tenant_id,
                                                               released__isnull=True).first()  # fmt: skip
        if key is None:
            return None
        before, now = snapshot(key), timezone.now()
        key.released = now
        key.reusable_after = now + datetime.timedelta(minutes=fabric.cooldown_minutes)
        key.save(update_fields=["released", "reusable_after"])
        record("partition.release", key, before=before, after=snapshot(key), tenant=tenant_id)
    return key


# ---------------------------------------------------------------- VF port GUIDs


def vf_guids(fabric: Fabric) -> range:
    """The fabric's site-configured VF GUID range, as integers (empty when the site set none)."""
    if not fabric.vf_guid_first or not fabric.vf_guid_count:
        return range(0)
    first = int(fabric.vf_guid_first, 16)
    return range(first, min(first + fabric.vf_guid_count, 1 << 64))


def assign_vf_guids(fabric: Fabric, assignments: list) -> int:
    """Give each VF assignment without one the lowest free GUID of the fabric's range (caller holds the lock)."""
    missing = [a for a in assignments if not a.port_guid]
    span = vf_guids(fabric)
    if not missing or not span:
        return 0
    low, high = f"0x{span.start:016x}", f"0x{span.stop - 1:016x}"
    used = set(VFAssignment.objects.filter(port_guid__gte=low, port_guid__lte=high)
               .values_list("port_guid", flat=True))  # fmt: skip
    free = (f"0x{n:016x}" for n in span if f"0x{n:016x}" not in used)
    for assignment in missing:
        guid = next(free, None)
        if guid is None:
            raise PoolExhausted(f"Fabric {fabric.name}'s VF GUID range is exhausted ({fabric.vf_guid_count}).")
        VFAssignment.objects.filter(pk=assignment.pk).update(port_guid=guid)
        assignment.port_guid = guid
    return len(missing)
