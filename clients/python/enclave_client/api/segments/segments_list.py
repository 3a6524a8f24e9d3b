from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.paginated_segment_list import PaginatedSegmentList
from ...models.segments_list_kind import SegmentsListKind
from ...models.segments_list_state_item import SegmentsListStateItem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    id_pool: int | Unset = UNSET,
    kind: SegmentsListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    prefix_pool: int | Unset = UNSET,
    q: str | Unset = UNSET,
    state: list[SegmentsListStateItem] | Unset = UNSET,
    tenant: int | Unset = UNSET,
    vlan_id: int | Unset = UNSET,
    vni: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["id_pool"] = id_pool

    json_kind: str | Unset = UNSET
    if not isinstance(kind, Unset):
        json_kind = kind.value

    params["kind"] = json_kind

    params["limit"] = limit

    params["offset"] = offset

    params["ordering"] = ordering

    params["prefix_pool"] = prefix_pool

    params["q"] = q

    json_state: list[str] | Unset = UNSET
    if not isinstance(state, Unset):
        json_state = []
        for state_item_data in state:
            state_item = state_item_data.value
            json_state.append(state_item)

    params["state"] = json_state

    params["tenant"] = tenant

    params["vlan_id"] = vlan_id

    params["vni"] = vni

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/segments/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PaginatedSegmentList | None:
    if response.status_code == 200:
        response_200 = PaginatedSegmentList.from_dict(response.json())

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
) -> Response[Error | PaginatedSegmentList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    id_pool: int | Unset = UNSET,
    kind: SegmentsListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    prefix_pool: int | Unset = UNSET,
    q: str | Unset = UNSET,
    state: list[SegmentsListStateItem] | Unset = UNSET,
    tenant: int | Unset = UNSET,
    vlan_id: int | Unset = UNSET,
    vni: int | Unset = UNSET,
) -> Response[Error | PaginatedSegmentList]:
    """Segments; ids and subnets come next-free from the pools unless given explicitly.

    Args:
        id_pool (int | Unset):
        kind (SegmentsListKind | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        prefix_pool (int | Unset):
        q (str | Unset):
        state (list[SegmentsListStateItem] | Unset):
        tenant (int | Unset):
        vlan_id (int | Unset):
        vni (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedSegmentList]
    """

    kwargs = _get_kwargs(
        id_pool=id_pool,
        kind=kind,
        limit=limit,
        offset=offset,
        ordering=ordering,
        prefix_pool=prefix_pool,
        q=q,
        state=state,
        tenant=tenant,
        vlan_id=vlan_id,
        vni=vni,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    id_pool: int | Unset = UNSET,
    kind: SegmentsListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    prefix_pool: int | Unset = UNSET,
    q: str | Unset = UNSET,
    state: list[SegmentsListStateItem] | Unset = UNSET,
    tenant: int | Unset = UNSET,
    vlan_id: int | Unset = UNSET,
    vni: int | Unset = UNSET,
) -> Error | PaginatedSegmentList | None:
    """Segments; ids and subnets come next-free from the pools unless given explicitly.

    Args:
        id_pool (int | Unset):
        kind (SegmentsListKind | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        prefix_pool (int | Unset):
        q (str | Unset):
        state (list[SegmentsListStateItem] | Unset):
        tenant (int | Unset):
        vlan_id (int | Unset):
        vni (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedSegmentList
    """

    return sync_detailed(
        client=client,
        id_pool=id_pool,
        kind=kind,
        limit=limit,
        offset=offset,
        ordering=ordering,
        prefix_pool=prefix_pool,
        q=q,
        state=state,
        tenant=tenant,
        vlan_id=vlan_id,
        vni=vni,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    id_pool: int | Unset = UNSET,
    kind: SegmentsListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    prefix_pool: int | Unset = UNSET,
    q: str | Unset = UNSET,
    state: list[SegmentsListStateItem] | Unset = UNSET,
    tenant: int | Unset = UNSET,
    vlan_id: int | Unset = UNSET,
    vni: int | Unset = UNSET,
) -> Response[Error | PaginatedSegmentList]:
    """Segments; ids and subnets come next-free from the pools unless given explicitly.

    Args:
        id_pool (int | Unset):
        kind (SegmentsListKind | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        prefix_pool (int | Unset):
        q (str | Unset):
        state (list[SegmentsListStateItem] | Unset):
        tenant (int | Unset):
        vlan_id (int | Unset):
        vni (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedSegmentList]
    """

    kwargs = _get_kwargs(
        id_pool=id_pool,
        kind=kind,
        limit=limit,
        offset=offset,
        ordering=ordering,
        prefix_pool=prefix_pool,
        q=q,
        state=state,
        tenant=tenant,
        vlan_id=vlan_id,
        vni=vni,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    id_pool: int | Unset = UNSET,
    kind: SegmentsListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    prefix_pool: int | Unset = UNSET,
    q: str | Unset = UNSET,
    state: list[SegmentsListStateItem] | Unset = UNSET,
    tenant: int | Unset = UNSET,
    vlan_id: int | Unset = UNSET,
    vni: int | Unset = UNSET,
) -> Error | PaginatedSegmentList | None:
    """Segments; ids and subnets come next-free from the pools unless given explicitly.

    Args:
        id_pool (int | Unset):
        kind (SegmentsListKind | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        prefix_pool (int | Unset):
        q (str | Unset):
        state (list[SegmentsListStateItem] | Unset):
        tenant (int | Unset):
        vlan_id (int | Unset):
        vni (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedSegmentList
    """

    return (
        await asyncio_detailed(
            client=client,
            id_pool=id_pool,
            kind=kind,
            limit=limit,
            offset=offset,
            ordering=ordering,
            prefix_pool=prefix_pool,
            q=q,
            state=state,
            tenant=tenant,
            vlan_id=vlan_id,
            vni=vni,
        )
    ).parsed
