from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.clusters_vsphere_operations_list_status import ClustersVsphereOperationsListStatus
from ...models.error import Error
from ...models.paginated_operation_log_list import PaginatedOperationLogList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    after: int | Unset = UNSET,
    generation: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    status: ClustersVsphereOperationsListStatus | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["after"] = after

    params["generation"] = generation

    params["limit"] = limit

    params["offset"] = offset

    params["ordering"] = ordering

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/clusters/{id}/vsphere-operations/".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PaginatedOperationLogList | None:
    if response.status_code == 200:
        response_200 = PaginatedOperationLogList.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | PaginatedOperationLogList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    generation: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    status: ClustersVsphereOperationsListStatus | Unset = UNSET,
) -> Response[Error | PaginatedOperationLogList]:
    """The reconciler's steps for one cluster, oldest first (poll with ?after=<last id>).

    Args:
        id (int):
        after (int | Unset):
        generation (int | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        status (ClustersVsphereOperationsListStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedOperationLogList]
    """

    kwargs = _get_kwargs(
        id=id,
        after=after,
        generation=generation,
        limit=limit,
        offset=offset,
        ordering=ordering,
        status=status,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: int,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    generation: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    status: ClustersVsphereOperationsListStatus | Unset = UNSET,
) -> Error | PaginatedOperationLogList | None:
    """The reconciler's steps for one cluster, oldest first (poll with ?after=<last id>).

    Args:
        id (int):
        after (int | Unset):
        generation (int | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        status (ClustersVsphereOperationsListStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedOperationLogList
    """

    return sync_detailed(
        id=id,
        client=client,
        after=after,
        generation=generation,
        limit=limit,
        offset=offset,
        ordering=ordering,
        status=status,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    generation: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    status: ClustersVsphereOperationsListStatus | Unset = UNSET,
) -> Response[Error | PaginatedOperationLogList]:
    """The reconciler's steps for one cluster, oldest first (poll with ?after=<last id>).

    Args:
        id (int):
        after (int | Unset):
        generation (int | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        status (ClustersVsphereOperationsListStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedOperationLogList]
    """

    kwargs = _get_kwargs(
        id=id,
        after=after,
        generation=generation,
        limit=limit,
        offset=offset,
        ordering=ordering,
        status=status,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    generation: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    status: ClustersVsphereOperationsListStatus | Unset = UNSET,
) -> Error | PaginatedOperationLogList | None:
    """The reconciler's steps for one cluster, oldest first (poll with ?after=<last id>).

    Args:
        id (int):
        after (int | Unset):
        generation (int | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        status (ClustersVsphereOperationsListStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedOperationLogList
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            after=after,
            generation=generation,
            limit=limit,
            offset=offset,
            ordering=ordering,
            status=status,
        )
    ).parsed
