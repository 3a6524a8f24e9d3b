from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.paginated_physical_function_list import PaginatedPhysicalFunctionList
from ...models.physical_functions_list_link_type import PhysicalFunctionsListLinkType
from ...models.physical_functions_list_source import PhysicalFunctionsListSource
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    host: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    link_type: PhysicalFunctionsListLinkType | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    pci_id: str | Unset = UNSET,
    source: PhysicalFunctionsListSource | Unset = UNSET,
    vcenter: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["host"] = host

    params["limit"] = limit

    json_link_type: str | Unset = UNSET
    if not isinstance(link_type, Unset):
        json_link_type = link_type.value

    params["link_type"] = json_link_type

    params["offset"] = offset

    params["ordering"] = ordering

    params["pci_id"] = pci_id

    json_source: str | Unset = UNSET
    if not isinstance(source, Unset):
        json_source = source.value

    params["source"] = json_source

    params["vcenter"] = vcenter

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/physical-functions/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PaginatedPhysicalFunctionList | None:
    if response.status_code == 200:
        response_200 = PaginatedPhysicalFunctionList.from_dict(response.json())

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
) -> Response[Error | PaginatedPhysicalFunctionList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    host: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    link_type: PhysicalFunctionsListLinkType | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    pci_id: str | Unset = UNSET,
    source: PhysicalFunctionsListSource | Unset = UNSET,
    vcenter: int | Unset = UNSET,
) -> Response[Error | PaginatedPhysicalFunctionList]:
    """SR-IOV PFs: discovered, or entered by hand where vCenter does not report them.

    Args:
        host (int | Unset):
        limit (int | Unset):
        link_type (PhysicalFunctionsListLinkType | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        pci_id (str | Unset):
        source (PhysicalFunctionsListSource | Unset):
        vcenter (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedPhysicalFunctionList]
    """

    kwargs = _get_kwargs(
        host=host,
        limit=limit,
        link_type=link_type,
        offset=offset,
        ordering=ordering,
        pci_id=pci_id,
        source=source,
        vcenter=vcenter,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    host: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    link_type: PhysicalFunctionsListLinkType | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    pci_id: str | Unset = UNSET,
    source: PhysicalFunctionsListSource | Unset = UNSET,
    vcenter: int | Unset = UNSET,
) -> Error | PaginatedPhysicalFunctionList | None:
    """SR-IOV PFs: discovered, or entered by hand where vCenter does not report them.

    Args:
        host (int | Unset):
        limit (int | Unset):
        link_type (PhysicalFunctionsListLinkType | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        pci_id (str | Unset):
        source (PhysicalFunctionsListSource | Unset):
        vcenter (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedPhysicalFunctionList
    """

    return sync_detailed(
        client=client,
        host=host,
        limit=limit,
        link_type=link_type,
        offset=offset,
        ordering=ordering,
        pci_id=pci_id,
        source=source,
        vcenter=vcenter,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    host: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    link_type: PhysicalFunctionsListLinkType | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    pci_id: str | Unset = UNSET,
    source: PhysicalFunctionsListSource | Unset = UNSET,
    vcenter: int | Unset = UNSET,
) -> Response[Error | PaginatedPhysicalFunctionList]:
    """SR-IOV PFs: discovered, or entered by hand where vCenter does not report them.

    Args:
        host (int | Unset):
        limit (int | Unset):
        link_type (PhysicalFunctionsListLinkType | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        pci_id (str | Unset):
        source (PhysicalFunctionsListSource | Unset):
        vcenter (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedPhysicalFunctionList]
    """

    kwargs = _get_kwargs(
        host=host,
        limit=limit,
        link_type=link_type,
        offset=offset,
        ordering=ordering,
        pci_id=pci_id,
        source=source,
        vcenter=vcenter,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    host: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    link_type: PhysicalFunctionsListLinkType | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    pci_id: str | Unset = UNSET,
    source: PhysicalFunctionsListSource | Unset = UNSET,
    vcenter: int | Unset = UNSET,
) -> Error | PaginatedPhysicalFunctionList | None:
    """SR-IOV PFs: discovered, or entered by hand where vCenter does not report them.

    Args:
        host (int | Unset):
        limit (int | Unset):
        link_type (PhysicalFunctionsListLinkType | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        pci_id (str | Unset):
        source (PhysicalFunctionsListSource | Unset):
        vcenter (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedPhysicalFunctionList
    """

    return (
        await asyncio_detailed(
            client=client,
            host=host,
            limit=limit,
            link_type=link_type,
            offset=offset,
            ordering=ordering,
            pci_id=pci_id,
            source=source,
            vcenter=vcenter,
        )
    ).parsed
