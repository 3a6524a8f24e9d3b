"""Fabrics as inventory (site admins), and the fabric agents' enrolment; every change audited.

Credentials and join tokens are the node agents' kind of secret (agents.credentials): random, stored only
as hashes, a join token spent once, a rotated credential valid for the same grace period.
"""

import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from enclave_agent import fabric_wire as wire

from agents import credentials
from audit.services import record, snapshot
from core.errors import Conflict, Forbidden, InvalidRequest, NotFound
from fabrics import desired
from fabrics.models import Fabric, FabricCredential, FabricHost, FabricJoinToken, FabricPool, SharedPort
from vsphere import vf_mac

CREDENTIAL_PREFIX = "encf_"  # a fabric agent's credential; never accepted by the tenant or node API
JOIN_PREFIX = "encfj_"  # a fabric agent's one-time join token
FIELDS = ("name", "kind", "description", "pkey_first", "pkey_last", "reserved_pkeys", "cooldown_minutes",
          "vf_guid_first", "vf_guid_count")  # fmt: skip


def _check(fabric: Fabric) -> None:
    """The key range and reserved keys inside 0x0001..0x7ffe; a VF GUID range that VF adapters' MACs can carry."""
    for name in ("pkey_first", "pkey_last"):
        if not wire.PKEY_MIN <= getattr(fabric, name) <= wire.PKEY_MAX:
            raise InvalidRequest(f"{name} must lie within 0x0001..0x7ffe (0x7fff is the default partition).", name)
    if fabric.pkey_first > fabric.pkey_last:
        raise InvalidRequest("pkey_first is after pkey_last.", "pkey_first")
    if any(not wire.PKEY_MIN <= k <= wire.PKEY_MAX for k in fabric.reserved_pkeys):
        raise InvalidRequest("Reserved keys lie within 0x0001..0x7ffe.", "reserved_pkeys")
    if fabric.vf_guid_first:
        try:
            first = int(wire.guid(fabric.vf_guid_first, "vf_guid_first"), 16)
        except wire.FabricError as exc:
            raise InvalidRequest(str(exc), "vf_guid_first") from None
        problem = vf_mac.range_problem(first, fabric.vf_guid_count)
        if problem:
            raise InvalidRequest(problem, "vf_guid_first")


def create_fabric(data: dict, hosts=(), pools=()) -> Fabric:
    """Declare a fabric, with the hosts and node pools cabled to it."""
    fabric = Fabric(**{k: v for k, v in data.items() if k in FIELDS})
    _check(fabric)
    with transaction.atomic():
        try:
            with transaction.atomic():
                fabric.save()
        except IntegrityError:
            raise InvalidRequest(f"A fabric named '{fabric.name}' already exists.", "name") from None
        _link(fabric, hosts, pools)
        record("fabric.create", fabric, after=snapshot(fabric) | _links(fabric))
        desired.sync(fabric)
    return fabric


def update_fabric(fabric: Fabric, data: dict, hosts=None, pools=None) -> Fabric:
    """Change a fabric's settings or what is on it; its desired state follows in the same transaction."""
    with transaction.atomic():
        current = Fabric.objects.select_for_update().get(pk=fabric.pk)
        before = snapshot(current) | _links(current)
        for name, value in data.items():
            if name in FIELDS:
                setattr(current, name, value)
        _check(current)
        try:
            with transaction.atomic():
                current.save()
        except IntegrityError:
            raise InvalidRequest(f"A fabric named '{current.name}' already exists.", "name") from None
        _link(current, hosts, pools)
        record("fabric.update", current, before=before, after=snapshot(current) | _links(current))
        desired.sync(current)
    return current


def _links(fabric: Fabric) -> dict:
    return {"hosts": sorted(fabric.host_links.values_list("host_id", flat=True)),
            "pools": sorted(fabric.pool_links.values_list("pool_id", flat=True))}  # fmt: skip


def _link(fabric: Fabric, hosts, pools) -> None:
    """Replace the fabric's hosts and pools (None: keep); one on another fabric is a 409."""
    for model, field, wanted in ((FabricHost, "host", hosts), (FabricPool, "pool", pools)):
        if wanted is None:
            continue
        ids = {getattr(w, "pk", w) for w in wanted}
        model.objects.filter(fabric=fabric).exclude(**{f"{field}_id__in": ids}).delete()
        taken = model.objects.filter(**{f"{field}_id__in": ids}).exclude(fabric=fabric)
        if taken.exists():
            raise Conflict(f"A {field} given is already on another fabric.", f"{field}s")
        for pk in ids - set(model.objects.filter(fabric=fabric).values_list(f"{field}_id", flat=True)):
            model.objects.create(fabric=fabric, **{f"{field}_id": pk})
    if hosts and not fabric.vf_guid_count:
        raise InvalidRequest("Hosts on a fabric need a VF GUID range: Enclave sets each VF's port GUID.", "hosts")


def add_shared_port(fabric: Fabric, guid: str, description: str = "") -> SharedPort:
    """Declare a storage or service port every tenant reaches: a full member of the default partition only."""
    try:
        guid = wire.guid(guid)
    except wire.FabricError as exc:
        raise InvalidRequest(str(exc), "guid") from None
    with transaction.atomic():
        try:
            with transaction.atomic():
                port = SharedPort.objects.create(fabric=fabric, guid=guid, description=description)
        except IntegrityError:
            raise InvalidRequest(f"{guid} is already a shared port of {fabric}.", "guid") from None
        record("sharedport.create", port, after=snapshot(port))
        desired.sync(fabric)
    return port


def remove_shared_port(port: SharedPort) -> None:
    with transaction.atomic():
        record("sharedport.delete", port, before=snapshot(port))
        fabric = port.fabric
        port.delete()
        desired.sync(fabric)


# ---------------------------------------------------------------- the fabric agent's enrolment


def create_join_token(fabric: Fabric, hours: int = 24) -> tuple[FabricJoinToken, str]:
    """A one-time join token for the fabric's agent; its plaintext is returned once and never stored."""
    raw, hashed = credentials.new_secret(JOIN_PREFIX)
    with transaction.atomic():
        token = FabricJoinToken.objects.create(fabric=fabric, token_hash=hashed, hint=raw[:10],
                                               expires_at=timezone.now() + datetime.timedelta(hours=hours))  # fmt: skip
        record("fabric.jointoken.create", token, after=snapshot(token))
    return token, raw


def _issue(fabric: Fabric, now) -> str:
    raw, hashed = credentials.new_secret(CREDENTIAL_PREFIX)
    lifetime = datetime.timedelta(days=settings.AGENT_CREDENTIAL_DAYS)
    cred = FabricCredential.objects.create(fabric=fabric, credential_hash=hashed, hint=raw[:12],
                                           expires_at=now + lifetime)  # fmt: skip
    record("fabric.credential.issue", cred, after=snapshot(cred))
    return raw


def credential_answer(raw: str) -> dict:
    cred = FabricCredential.objects.get(credential_hash=credentials.hash_token(raw))
    expires_in = int((cred.expires_at - timezone.now()).total_seconds())
    return {"fabric": cred.fabric.name, "credential": raw, "expires_at": cred.expires_at, "expires_in": expires_in}


def join(raw_token: str) -> tuple[Fabric, str]:
    """Exchange a fabric join token (once) for a credential scoped to that fabric; older ones are revoked."""
    now = timezone.now()
    with transaction.atomic():
        hashed = credentials.hash_token(raw_token)
        token = FabricJoinToken.objects.select_for_update().filter(token_hash=hashed).first()
        if token is None or token.used_at is not None or token.expires_at <= now:
            raise NotFound("Unknown, used or expired join token.")
        FabricJoinToken.objects.filter(pk=token.pk).update(used_at=now)
        fabric = Fabric.objects.select_for_update().get(pk=token.fabric_id)
        FabricCredential.objects.filter(fabric=fabric).delete()  # a re-enrolled agent replaces the old one
        record("fabric.enrol", fabric, message=f"join token {token.hint}…")
        raw = _issue(fabric, now)
    return fabric, raw


def rotate_credential(fabric: Fabric, presented: FabricCredential) -> str:
    """Swap the presented credential for a new one; the presented one stays valid for the grace period."""
    now = timezone.now()
    grace = now + datetime.timedelta(seconds=settings.AGENT_CREDENTIAL_GRACE_SECONDS)
    with transaction.atomic():
        current = Fabric.objects.select_for_update().get(pk=fabric.pk)
        old = FabricCredential.objects.filter(pk=presented.pk, fabric=current, expires_at__gt=now).first()
        if old is None:
            raise Forbidden("This credential was revoked or has expired.")
        FabricCredential.objects.filter(fabric=current).exclude(pk=old.pk).delete()
        FabricCredential.objects.filter(pk=old.pk).update(expires_at=min(old.expires_at, grace))
        return _issue(current, now)
