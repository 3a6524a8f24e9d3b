"""Workflows on the generated client, by name: tenants by slug, clusters and segments by name within a tenant,
firewall rules by name within a policy. Every function takes an `Api` and returns the client's typed models.

The client's endpoints and models are imported inside the functions that use them, from their own modules, so that
a command loads only its own (the `Api` they are given has deferred `enclave_client.models`' __init__)."""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from enclave_cli.api import Api
from enclave_cli.errors import CliError, TimedOut

if TYPE_CHECKING:
    from enclave_client.models.cluster import Cluster
    from enclave_client.models.segment import Segment
    from enclave_client.models.tenant import Tenant

FAILED = {"error", "rejected", "retired"}  # states a wait ends in unless it waits for them
SETTLED = {"ready", "degraded"}  # reached only once the site observed the latest generation


def typed(model, body: dict):
    """A request model from plain fields; a value the schema does not allow is a CliError."""
    try:
        return model.from_dict(body)
    except (ValueError, KeyError, TypeError) as exc:
        raise CliError(f"invalid request: {exc}") from None


def tenants(api: Api) -> list[Tenant]:
    """The tenants the token's user may see."""
    from enclave_client.api.tenants import tenants_list

    return api.all(tenants_list)


def tenant(api: Api, slug: str) -> Tenant:
    """A tenant by its slug (`astro`), or a CliError naming it."""
    from enclave_client.api.tenants import tenants_list

    rows = api.call(tenants_list, slug=slug).results
    if not rows:
        raise CliError(f"no tenant named {slug!r} (enclave tenants list shows yours)")
    return rows[0]


def _by_name(rows: list, name: str, dead: set[str], what: str):
    """The row called `name`; a live one before a retired one of the same name, the newest first."""
    matches = sorted((r for r in rows if r.name == name), key=lambda r: r.id, reverse=True)
    if not matches:
        raise CliError(f"no {what} named {name!r}")
    live = [r for r in matches if str(getattr(r.state, "value", r.state)) not in dead]
    return (live or matches)[0]


def clusters(api: Api, slug: str | None = None, states: list[str] | None = None) -> list[Cluster]:
    """Clusters of one tenant (or all visible ones), optionally only in some states."""
    from enclave_client.api.clusters import clusters_list

    filters = {"tenant": tenant(api, slug).id} if slug else {}
    rows = api.all(clusters_list, **filters)
    return [r for r in rows if not states or r.state.value in states]


def cluster(api: Api, slug: str, name: str) -> Cluster:
    """A cluster by tenant slug and cluster name."""
    from enclave_client.api.clusters import clusters_list

    rows = api.all(clusters_list, tenant=tenant(api, slug).id, q=name)
    return _by_name(rows, name, {"retired", "rejected"}, f"cluster in tenant {slug!r}")


def refresh(api: Api, found: Cluster) -> Cluster:
    """The cluster as the server has it now."""
    from enclave_client.api.clusters import clusters_retrieve

    return api.call(clusters_retrieve, found.id, what=f"cluster {found.name}")


def request_cluster(api: Api, slug: str, spec: dict, submit: bool = True) -> Cluster:
    """Request a cluster in a tenant: a draft, or submitted to the PI (members) or to site admins (owners)."""
    from enclave_client.api.clusters import clusters_create
    from enclave_client.models.cluster_request_type_0 import ClusterRequestType0
    from enclave_client.models.cluster_request_type_1 import ClusterRequestType1
    from enclave_client.models.cluster_request_type_2 import ClusterRequestType2
    from enclave_client.models.cluster_request_type_3 import ClusterRequestType3
    from enclave_client.models.cluster_request_type_4 import ClusterRequestType4
    from enclave_client.models.cluster_request_type_5 import ClusterRequestType5

    variants = (ClusterRequestType0, ClusterRequestType1, ClusterRequestType2, ClusterRequestType3,
                ClusterRequestType4, ClusterRequestType5)  # fmt: skip
    body = {**spec, "tenant": tenant(api, slug).id, "submit": submit}
    for variant in variants:
        try:
            request = variant.from_dict(body)
            break
        except (ValueError, KeyError, TypeError):
            continue
    else:  # no variant fits: let the server say which fields do not go together
        request = ClusterRequestType0()
        request.additional_properties = body
    return api.call(clusters_create, body=request)


def endorse(api: Api, found: Cluster) -> Cluster:
    """A tenant owner endorses a member's request."""
    from enclave_client.api.clusters import clusters_endorse_create

    return api.call(clusters_endorse_create, found.id, what=f"cluster {found.name}")


def approve(api: Api, found: Cluster, site: int | None = None) -> Cluster:
    """A site admin approves an endorsed request; the site then realizes it."""
    from enclave_client.api.clusters import clusters_approve_create
    from enclave_client.models.approve_request import ApproveRequest

    body = ApproveRequest.from_dict({"site": site} if site else {})
    return api.call(clusters_approve_create, found.id, body=body, what=f"cluster {found.name}")


def reject(api: Api, found: Cluster, reason: str) -> Cluster:
    """Reject a pending request with a reason."""
    from enclave_client.api.clusters import clusters_reject_create
    from enclave_client.models.reject_request import RejectRequest

    body = RejectRequest(reason=reason)
    return api.call(clusters_reject_create, found.id, body=body, what=f"cluster {found.name}")


def decommission(api: Api, found: Cluster) -> Cluster:
    """Withdraw a pending request or tear down a realized cluster."""
    from enclave_client.api.clusters import clusters_decommission_create

    return api.call(clusters_decommission_create, found.id, what=f"cluster {found.name}")


def resize(api: Api, found: Cluster, workers: int | None, interconnect: str | None) -> Cluster:
    """Day 2: a new worker count, a new interconnect, or both."""
    from enclave_client.api.clusters import clusters_resize_create

    body = {key: value for key, value in (("worker_count", workers), ("interconnect", interconnect)) if value}
    if not body:
        raise CliError("give --workers, --interconnect or both")
    return api.call(clusters_resize_create, found.id, body=body, what=f"cluster {found.name}")


def extend_lease(api: Api, found: Cluster, lease_end: datetime.date, justification: str = ""):
    """Move the lease end: the cluster at once, or a pending extension past the site's maximum."""
    from enclave_client.api.clusters import clusters_extend_lease_create
    from enclave_client.models.extend_lease_request import ExtendLeaseRequest

    body = ExtendLeaseRequest(lease_end=lease_end, justification=justification)
    return api.call(clusters_extend_lease_create, found.id, body=body, what=f"cluster {found.name}")


def _state(obj) -> str:
    return str(getattr(obj.state, "value", obj.state))


def settled(obj, targets: set[str]) -> bool:
    """In a wanted state; ready or degraded only once the site observed the latest change."""
    state = _state(obj)
    return state in targets and (state not in SETTLED or obj.observed_generation >= obj.generation)


def wait_for(fetch: Callable, targets: set[str], timeout: float, interval: float, progress: Callable):
    """Poll `fetch` until the object is in one of `targets`; a failure state or the timeout is a CliError."""
    deadline = time.monotonic() + timeout
    while True:
        obj = fetch()
        progress(obj)
        state = _state(obj)
        if settled(obj, targets):
            return obj
        if state in FAILED - targets:
            message = getattr(obj, "status_message", "") or getattr(obj, "rejection_reason", "")
            raise CliError(f"{obj.name} is {state}" + (f": {message}" if message else ""))
        if time.monotonic() >= deadline:
            wanted = " or ".join(sorted(targets))
            raise TimedOut(f"timed out after {timeout:g}s waiting for {obj.name} to be {wanted}; it is {state}")
        time.sleep(min(interval, max(deadline - time.monotonic(), 0.05)))


def segments(api: Api, slug: str | None = None) -> list[Segment]:
    """Segments of one tenant, or all visible ones."""
    from enclave_client.api.segments import segments_list

    filters = {"tenant": tenant(api, slug).id} if slug else {}
    return api.all(segments_list, **filters)


def segment(api: Api, slug: str, name: str) -> Segment:
    """A segment by tenant slug and segment name."""
    from enclave_client.api.segments import segments_list

    rows = api.all(segments_list, tenant=tenant(api, slug).id, q=name)
    return _by_name(rows, name, {"retired", "rejected"}, f"segment in tenant {slug!r}")


def refresh_segment(api: Api, found: Segment) -> Segment:
    """The segment as the server has it now."""
    from enclave_client.api.segments import segments_retrieve

    return api.call(segments_retrieve, found.id, what=f"segment {found.name}")


def request_segment(api: Api, slug: str, spec: dict) -> Segment:
    """Request a segment; ids and subnet come next-free from the pools unless given."""
    from enclave_client.api.segments import segments_create
    from enclave_client.models.segment_request import SegmentRequest

    body = {key: value for key, value in spec.items() if value is not None}
    request = typed(SegmentRequest, {**body, "tenant": tenant(api, slug).id})
    return api.call(segments_create, body=request)


def retire_segment(api: Api, found: Segment) -> Segment:
    """Retire a segment; its ids and subnet return to the pools."""
    from enclave_client.api.segments import segments_retire_create

    return api.call(segments_retire_create, found.id, what=f"segment {found.name}")


def tokens(api: Api) -> list:
    """The user's own tokens."""
    from enclave_client.api.tokens import tokens_list

    return api.all(tokens_list)


def create_token(api: Api, name: str, scope: str, expires_at: datetime.datetime | None = None):
    """A new token; its plaintext is in the answer's `token`, shown this once."""
    from enclave_client.api.tokens import tokens_create
    from enclave_client.models.token_request import TokenRequest

    body = {"name": name, "scope": scope} | ({"expires_at": expires_at.isoformat()} if expires_at else {})
    return api.call(tokens_create, body=typed(TokenRequest, body))


def token(api: Api, name: str):
    """One of the user's tokens by name (the live one if a revoked one shares it)."""
    from enclave_client.api.tokens import tokens_list

    rows = [r for r in api.all(tokens_list, name=name) if r.name == name]
    if not rows:
        raise CliError(f"you have no token named {name!r} (enclave tokens list shows yours)")
    return sorted(rows, key=lambda r: (r.is_active, r.id))[-1]


def revoke_token(api: Api, name: str):
    """Revoke a token by name; it stops working at once."""
    from enclave_client.api.tokens import tokens_revoke_create

    found = token(api, name)
    return api.call(tokens_revoke_create, found.id, what=f"token {name}")


def me(api: Api):
    """Who the token belongs to: the account, its tenants and roles, and the token itself (GET /me/)."""
    from enclave_client.api.me import me_retrieve

    return api.call(me_retrieve)
