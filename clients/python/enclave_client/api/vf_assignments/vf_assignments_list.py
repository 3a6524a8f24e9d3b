from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.paginated_vf_assignment_list import PaginatedVFAssignmentList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cluster: int | Unset = UNSET,
    host: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    pf: int | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cluster"] = cluster

    params["host"] = host

    params["limit"] = limit

    params["offset"] = offset

    params["ordering"] = ordering

    params["pf"] = pf

    params["tenant"] = tenant

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/vf-assignments/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PaginatedVFAssignmentList | None:
    if response.status_code == 200:
        response_200 = PaginatedVFAssignmentList.from_dict(response.json())

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
) -> Response[Error | PaginatedVFAssignmentList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    cluster: int | Unset = UNSET,
    host: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    pf: int | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> Response[Error | PaginatedVFAssignmentList]:
    """VFs held by clusters: site admins see all, tenant members their own clusters' VFs.

    Args:
        cluster (int | Unset):
        host (int | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        pf (int | Unset):
        tenant (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedVFAssignmentList]
    """

    kwargs = _get_kwargs(
        cluster=cluster,
        host=host,
        limit=limit,
        offset=offset,
        ordering=ordering,
        pf=pf,
        tenant=tenant,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cluster: int | Unset = UNSET,
    host: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    pf: int | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> Error | PaginatedVFAssignmentList | None:
    """VFs held by clusters: site admins see all, tenant members their own clusters' VFs.

    Args:
        cluster (int | Unset):
        host (int | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        pf (int | Unset):
        tenant (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedVFAssignmentList
    """

    return sync_detailed(
        client=client,
        cluster=cluster,
        host=host,
        limit=limit,
        offset=offset,
        ordering=ordering,
        pf=pf,
        tenant=tenant,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cluster: int | Unset = UNSET,
    host: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    pf: int | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> Response[Error | PaginatedVFAssignmentList]:
    """VFs held by clusters: site admins see all, tenant members their own clusters' VFs.

    Args:
        cluster (int | Unset):
        host (int | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        pf (int | Unset):
        tenant (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedVFAssignmentList]
    """

    kwargs = _get_kwargs(
        cluster=cluster,
        host=host,
        limit=limit,
        offset=offset,
        ordering=ordering,
        pf=pf,
        tenant=tenant,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cluster: int | Unset = UNSET,
    host: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    pf: int | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> Error | PaginatedVFAssignmentList | None:
    """VFs held by clusters: site admins see all, tenant members their own clusters' VFs.

    Args:
        cluster (int | Unset):
        host (int | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        pf (int | Unset):
        tenant (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedVFAssignmentList
    """

    return (
        await asyncio_detailed(
            client=client,
            cluster=cluster,
            host=host,
            limit=limit,
            offset=offset,
            ordering=ordering,
            pf=pf,
            tenant=tenant,
        )
    ).parsed
