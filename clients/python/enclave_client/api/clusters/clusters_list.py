from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.clusters_list_interconnect import ClustersListInterconnect
from ...models.clusters_list_network_mode import ClustersListNetworkMode
from ...models.clusters_list_state_item import ClustersListStateItem
from ...models.clusters_list_workload_class import ClustersListWorkloadClass
from ...models.error import Error
from ...models.paginated_cluster_list import PaginatedClusterList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    interconnect: ClustersListInterconnect | Unset = UNSET,
    limit: int | Unset = UNSET,
    network_mode: ClustersListNetworkMode | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    q: str | Unset = UNSET,
    state: list[ClustersListStateItem] | Unset = UNSET,
    tenant: int | Unset = UNSET,
    workload_class: ClustersListWorkloadClass | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_interconnect: str | Unset = UNSET
    if not isinstance(interconnect, Unset):
        json_interconnect = interconnect.value

    params["interconnect"] = json_interconnect

    params["limit"] = limit

    json_network_mode: str | Unset = UNSET
    if not isinstance(network_mode, Unset):
        json_network_mode = network_mode.value

    params["network_mode"] = json_network_mode

    params["offset"] = offset

    params["ordering"] = ordering

    params["q"] = q

    json_state: list[str] | Unset = UNSET
    if not isinstance(state, Unset):
        json_state = []
        for state_item_data in state:
            state_item = state_item_data.value
            json_state.append(state_item)

    params["state"] = json_state

    params["tenant"] = tenant

    json_workload_class: str | Unset = UNSET
    if not isinstance(workload_class, Unset):
        json_workload_class = workload_class.value

    params["workload_class"] = json_workload_class

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/clusters/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PaginatedClusterList | None:
    if response.status_code == 200:
        response_200 = PaginatedClusterList.from_dict(response.json())

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
) -> Response[Error | PaginatedClusterList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    interconnect: ClustersListInterconnect | Unset = UNSET,
    limit: int | Unset = UNSET,
    network_mode: ClustersListNetworkMode | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    q: str | Unset = UNSET,
    state: list[ClustersListStateItem] | Unset = UNSET,
    tenant: int | Unset = UNSET,
    workload_class: ClustersListWorkloadClass | Unset = UNSET,
) -> Response[Error | PaginatedClusterList]:
    """
    Args:
        interconnect (ClustersListInterconnect | Unset):
        limit (int | Unset):
        network_mode (ClustersListNetworkMode | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        q (str | Unset):
        state (list[ClustersListStateItem] | Unset):
        tenant (int | Unset):
        workload_class (ClustersListWorkloadClass | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedClusterList]
    """

    kwargs = _get_kwargs(
        interconnect=interconnect,
        limit=limit,
        network_mode=network_mode,
        offset=offset,
        ordering=ordering,
        q=q,
        state=state,
        tenant=tenant,
        workload_class=workload_class,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    interconnect: ClustersListInterconnect | Unset = UNSET,
    limit: int | Unset = UNSET,
    network_mode: ClustersListNetworkMode | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    q: str | Unset = UNSET,
    state: list[ClustersListStateItem] | Unset = UNSET,
    tenant: int | Unset = UNSET,
    workload_class: ClustersListWorkloadClass | Unset = UNSET,
) -> Error | PaginatedClusterList | None:
    """
    Args:
        interconnect (ClustersListInterconnect | Unset):
        limit (int | Unset):
        network_mode (ClustersListNetworkMode | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        q (str | Unset):
        state (list[ClustersListStateItem] | Unset):
        tenant (int | Unset):
        workload_class (ClustersListWorkloadClass | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedClusterList
    """

    return sync_detailed(
        client=client,
        interconnect=interconnect,
        limit=limit,
        network_mode=network_mode,
        offset=offset,
        ordering=ordering,
        q=q,
        state=state,
        tenant=tenant,
        workload_class=workload_class,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    interconnect: ClustersListInterconnect | Unset = UNSET,
    limit: int | Unset = UNSET,
    network_mode: ClustersListNetworkMode | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    q: str | Unset = UNSET,
    state: list[ClustersListStateItem] | Unset = UNSET,
    tenant: int | Unset = UNSET,
    workload_class: ClustersListWorkloadClass | Unset = UNSET,
) -> Response[Error | PaginatedClusterList]:
    """
    Args:
        interconnect (ClustersListInterconnect | Unset):
        limit (int | Unset):
        network_mode (ClustersListNetworkMode | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        q (str | Unset):
        state (list[ClustersListStateItem] | Unset):
        tenant (int | Unset):
        workload_class (ClustersListWorkloadClass | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedClusterList]
    """

    kwargs = _get_kwargs(
        interconnect=interconnect,
        limit=limit,
        network_mode=network_mode,
        offset=offset,
        ordering=ordering,
        q=q,
        state=state,
        tenant=tenant,
        workload_class=workload_class,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    interconnect: ClustersListInterconnect | Unset = UNSET,
    limit: int | Unset = UNSET,
    network_mode: ClustersListNetworkMode | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    q: str | Unset = UNSET,
    state: list[ClustersListStateItem] | Unset = UNSET,
    tenant: int | Unset = UNSET,
    workload_class: ClustersListWorkloadClass | Unset = UNSET,
) -> Error | PaginatedClusterList | None:
    """
    Args:
        interconnect (ClustersListInterconnect | Unset):
        limit (int | Unset):
        network_mode (ClustersListNetworkMode | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        q (str | Unset):
        state (list[ClustersListStateItem] | Unset):
        tenant (int | Unset):
        workload_class (ClustersListWorkloadClass | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedClusterList
    """

    return (
        await asyncio_detailed(
            client=client,
            interconnect=interconnect,
            limit=limit,
            network_mode=network_mode,
            offset=offset,
            ordering=ordering,
            q=q,
            state=state,
            tenant=tenant,
            workload_class=workload_class,
        )
    ).parsed
