import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.audit_events_list_actor_kind import AuditEventsListActorKind
from ...models.error import Error
from ...models.paginated_audit_event_list import PaginatedAuditEventList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    action: str | Unset = UNSET,
    actor: str | Unset = UNSET,
    actor_kind: AuditEventsListActorKind | Unset = UNSET,
    client_request_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    object_id: str | Unset = UNSET,
    object_type: str | Unset = UNSET,
    q: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    tenant: int | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["action"] = action

    params["actor"] = actor

    json_actor_kind: str | Unset = UNSET
    if not isinstance(actor_kind, Unset):
        json_actor_kind = actor_kind.value

    params["actor_kind"] = json_actor_kind

    params["client_request_id"] = client_request_id

    params["cursor"] = cursor

    params["limit"] = limit

    params["object_id"] = object_id

    params["object_type"] = object_type

    params["q"] = q

    params["request_id"] = request_id

    json_since: str | Unset = UNSET
    if not isinstance(since, Unset):
        json_since = since.isoformat()
    params["since"] = json_since

    params["tenant"] = tenant

    json_until: str | Unset = UNSET
    if not isinstance(until, Unset):
        json_until = until.isoformat()
    params["until"] = json_until

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/audit-events/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PaginatedAuditEventList | None:
    if response.status_code == 200:
        response_200 = PaginatedAuditEventList.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | PaginatedAuditEventList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    action: str | Unset = UNSET,
    actor: str | Unset = UNSET,
    actor_kind: AuditEventsListActorKind | Unset = UNSET,
    client_request_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    object_id: str | Unset = UNSET,
    object_type: str | Unset = UNSET,
    q: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    tenant: int | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
) -> Response[Error | PaginatedAuditEventList]:
    """Site admins see every event; tenant members see their tenants' events. Newest first.

    Args:
        action (str | Unset):
        actor (str | Unset):
        actor_kind (AuditEventsListActorKind | Unset):
        client_request_id (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):
        object_id (str | Unset):
        object_type (str | Unset):
        q (str | Unset):
        request_id (str | Unset):
        since (datetime.datetime | Unset):
        tenant (int | Unset):
        until (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedAuditEventList]
    """

    kwargs = _get_kwargs(
        action=action,
        actor=actor,
        actor_kind=actor_kind,
        client_request_id=client_request_id,
        cursor=cursor,
        limit=limit,
        object_id=object_id,
        object_type=object_type,
        q=q,
        request_id=request_id,
        since=since,
        tenant=tenant,
        until=until,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    action: str | Unset = UNSET,
    actor: str | Unset = UNSET,
    actor_kind: AuditEventsListActorKind | Unset = UNSET,
    client_request_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    object_id: str | Unset = UNSET,
    object_type: str | Unset = UNSET,
    q: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    tenant: int | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
) -> Error | PaginatedAuditEventList | None:
    """Site admins see every event; tenant members see their tenants' events. Newest first.

    Args:
        action (str | Unset):
        actor (str | Unset):
        actor_kind (AuditEventsListActorKind | Unset):
        client_request_id (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):
        object_id (str | Unset):
        object_type (str | Unset):
        q (str | Unset):
        request_id (str | Unset):
        since (datetime.datetime | Unset):
        tenant (int | Unset):
        until (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedAuditEventList
    """

    return sync_detailed(
        client=client,
        action=action,
        actor=actor,
        actor_kind=actor_kind,
        client_request_id=client_request_id,
        cursor=cursor,
        limit=limit,
        object_id=object_id,
        object_type=object_type,
        q=q,
        request_id=request_id,
        since=since,
        tenant=tenant,
        until=until,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    action: str | Unset = UNSET,
    actor: str | Unset = UNSET,
    actor_kind: AuditEventsListActorKind | Unset = UNSET,
    client_request_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    object_id: str | Unset = UNSET,
    object_type: str | Unset = UNSET,
    q: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    tenant: int | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
) -> Response[Error | PaginatedAuditEventList]:
    """Site admins see every event; tenant members see their tenants' events. Newest first.

    Args:
        action (str | Unset):
        actor (str | Unset):
        actor_kind (AuditEventsListActorKind | Unset):
        client_request_id (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):
        object_id (str | Unset):
        object_type (str | Unset):
        q (str | Unset):
        request_id (str | Unset):
        since (datetime.datetime | Unset):
        tenant (int | Unset):
        until (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedAuditEventList]
    """

    kwargs = _get_kwargs(
        action=action,
        actor=actor,
        actor_kind=actor_kind,
        client_request_id=client_request_id,
        cursor=cursor,
        limit=limit,
        object_id=object_id,
        object_type=object_type,
        q=q,
        request_id=request_id,
        since=since,
        tenant=tenant,
        until=until,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    action: str | Unset = UNSET,
    actor: str | Unset = UNSET,
    actor_kind: AuditEventsListActorKind | Unset = UNSET,
    client_request_id: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    object_id: str | Unset = UNSET,
    object_type: str | Unset = UNSET,
    q: str | Unset = UNSET,
    request_id: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
    tenant: int | Unset = UNSET,
    until: datetime.datetime | Unset = UNSET,
) -> Error | PaginatedAuditEventList | None:
    """Site admins see every event; tenant members see their tenants' events. Newest first.

    Args:
        action (str | Unset):
        actor (str | Unset):
        actor_kind (AuditEventsListActorKind | Unset):
        client_request_id (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):
        object_id (str | Unset):
        object_type (str | Unset):
        q (str | Unset):
        request_id (str | Unset):
        since (datetime.datetime | Unset):
        tenant (int | Unset):
        until (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedAuditEventList
    """

    return (
        await asyncio_detailed(
            client=client,
            action=action,
            actor=actor,
            actor_kind=actor_kind,
            client_request_id=client_request_id,
            cursor=cursor,
            limit=limit,
            object_id=object_id,
            object_type=object_type,
            q=q,
            request_id=request_id,
            since=since,
            tenant=tenant,
            until=until,
        )
    ).parsed
