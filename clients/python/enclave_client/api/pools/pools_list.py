from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.paginated_pool_list import PaginatedPoolList
from ...models.pools_list_kind import PoolsListKind
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    kind: PoolsListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    routing_domain: str | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_kind: str | Unset = UNSET
    if not isinstance(kind, Unset):
        json_kind = kind.value

    params["kind"] = json_kind

    params["limit"] = limit

    params["offset"] = offset

    params["ordering"] = ordering

    params["routing_domain"] = routing_domain

    params["tenant"] = tenant

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/pools/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PaginatedPoolList | None:
    if response.status_code == 200:
        response_200 = PaginatedPoolList.from_dict(response.json())

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
) -> Response[Error | PaginatedPoolList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    kind: PoolsListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    routing_domain: str | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> Response[Error | PaginatedPoolList]:
    """Id and address pools; site admins define them, tenants see shared and reserved ones.

    Args:
        kind (PoolsListKind | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        routing_domain (str | Unset):
        tenant (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedPoolList]
    """

    kwargs = _get_kwargs(
        kind=kind,
        limit=limit,
        offset=offset,
        ordering=ordering,
        routing_domain=routing_domain,
        tenant=tenant,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    kind: PoolsListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    routing_domain: str | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> Error | PaginatedPoolList | None:
    """Id and address pools; site admins define them, tenants see shared and reserved ones.

    Args:
        kind (PoolsListKind | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        routing_domain (str | Unset):
        tenant (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedPoolList
    """

    return sync_detailed(
        client=client,
        kind=kind,
        limit=limit,
        offset=offset,
        ordering=ordering,
        routing_domain=routing_domain,
        tenant=tenant,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    kind: PoolsListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    routing_domain: str | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> Response[Error | PaginatedPoolList]:
    """Id and address pools; site admins define them, tenants see shared and reserved ones.

    Args:
        kind (PoolsListKind | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        routing_domain (str | Unset):
        tenant (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedPoolList]
    """

    kwargs = _get_kwargs(
        kind=kind,
        limit=limit,
        offset=offset,
        ordering=ordering,
        routing_domain=routing_domain,
        tenant=tenant,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    kind: PoolsListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    routing_domain: str | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> Error | PaginatedPoolList | None:
    """Id and address pools; site admins define them, tenants see shared and reserved ones.

    Args:
        kind (PoolsListKind | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        routing_domain (str | Unset):
        tenant (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedPoolList
    """

    return (
        await asyncio_detailed(
            client=client,
            kind=kind,
            limit=limit,
            offset=offset,
            ordering=ordering,
            routing_domain=routing_domain,
            tenant=tenant,
        )
    ).parsed
