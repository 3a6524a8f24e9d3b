from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.paginated_partition_list import PaginatedPartitionList
from ...models.partitions_list_state import PartitionsListState
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    fabric: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    state: PartitionsListState | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["fabric"] = fabric

    params["limit"] = limit

    params["offset"] = offset

    params["ordering"] = ordering

    json_state: str | Unset = UNSET
    if not isinstance(state, Unset):
        json_state = state.value

    params["state"] = json_state

    params["tenant"] = tenant

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/partitions/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PaginatedPartitionList | None:
    if response.status_code == 200:
        response_200 = PaginatedPartitionList.from_dict(response.json())

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
) -> Response[Error | PaginatedPartitionList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    fabric: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    state: PartitionsListState | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> Response[Error | PaginatedPartitionList]:
    """Tenants' partition keys: site admins see all, tenant members their own tenant's.

    Args:
        fabric (int | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        state (PartitionsListState | Unset):
        tenant (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedPartitionList]
    """

    kwargs = _get_kwargs(
        fabric=fabric,
        limit=limit,
        offset=offset,
        ordering=ordering,
        state=state,
        tenant=tenant,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    fabric: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    state: PartitionsListState | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> Error | PaginatedPartitionList | None:
    """Tenants' partition keys: site admins see all, tenant members their own tenant's.

    Args:
        fabric (int | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        state (PartitionsListState | Unset):
        tenant (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedPartitionList
    """

    return sync_detailed(
        client=client,
        fabric=fabric,
        limit=limit,
        offset=offset,
        ordering=ordering,
        state=state,
        tenant=tenant,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    fabric: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    state: PartitionsListState | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> Response[Error | PaginatedPartitionList]:
    """Tenants' partition keys: site admins see all, tenant members their own tenant's.

    Args:
        fabric (int | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        state (PartitionsListState | Unset):
        tenant (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedPartitionList]
    """

    kwargs = _get_kwargs(
        fabric=fabric,
        limit=limit,
        offset=offset,
        ordering=ordering,
        state=state,
        tenant=tenant,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    fabric: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    state: PartitionsListState | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> Error | PaginatedPartitionList | None:
    """Tenants' partition keys: site admins see all, tenant members their own tenant's.

    Args:
        fabric (int | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        state (PartitionsListState | Unset):
        tenant (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedPartitionList
    """

    return (
        await asyncio_detailed(
            client=client,
            fabric=fabric,
            limit=limit,
            offset=offset,
            ordering=ordering,
            state=state,
            tenant=tenant,
        )
    ).parsed
