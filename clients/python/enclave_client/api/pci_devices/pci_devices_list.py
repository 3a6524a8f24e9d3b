from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.paginated_pci_device_list import PaginatedPCIDeviceList
from ...models.pci_devices_list_kind import PciDevicesListKind
from ...models.pci_devices_list_mode import PciDevicesListMode
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    host: int | Unset = UNSET,
    kind: PciDevicesListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    mode: PciDevicesListMode | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    pci_id: str | Unset = UNSET,
    vcenter: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["host"] = host

    json_kind: str | Unset = UNSET
    if not isinstance(kind, Unset):
        json_kind = kind.value

    params["kind"] = json_kind

    params["limit"] = limit

    json_mode: str | Unset = UNSET
    if not isinstance(mode, Unset):
        json_mode = mode.value

    params["mode"] = json_mode

    params["offset"] = offset

    params["ordering"] = ordering

    params["pci_id"] = pci_id

    params["vcenter"] = vcenter

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/pci-devices/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PaginatedPCIDeviceList | None:
    if response.status_code == 200:
        response_200 = PaginatedPCIDeviceList.from_dict(response.json())

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
) -> Response[Error | PaginatedPCIDeviceList]:
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
    kind: PciDevicesListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    mode: PciDevicesListMode | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    pci_id: str | Unset = UNSET,
    vcenter: int | Unset = UNSET,
) -> Response[Error | PaginatedPCIDeviceList]:
    """Devices hosts hand to VMs whole (DirectPath I/O) or share as vGPUs, as discovery found them.

    Args:
        host (int | Unset):
        kind (PciDevicesListKind | Unset):
        limit (int | Unset):
        mode (PciDevicesListMode | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        pci_id (str | Unset):
        vcenter (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedPCIDeviceList]
    """

    kwargs = _get_kwargs(
        host=host,
        kind=kind,
        limit=limit,
        mode=mode,
        offset=offset,
        ordering=ordering,
        pci_id=pci_id,
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
    kind: PciDevicesListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    mode: PciDevicesListMode | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    pci_id: str | Unset = UNSET,
    vcenter: int | Unset = UNSET,
) -> Error | PaginatedPCIDeviceList | None:
    """Devices hosts hand to VMs whole (DirectPath I/O) or share as vGPUs, as discovery found them.

    Args:
        host (int | Unset):
        kind (PciDevicesListKind | Unset):
        limit (int | Unset):
        mode (PciDevicesListMode | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        pci_id (str | Unset):
        vcenter (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedPCIDeviceList
    """

    return sync_detailed(
        client=client,
        host=host,
        kind=kind,
        limit=limit,
        mode=mode,
        offset=offset,
        ordering=ordering,
        pci_id=pci_id,
        vcenter=vcenter,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    host: int | Unset = UNSET,
    kind: PciDevicesListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    mode: PciDevicesListMode | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    pci_id: str | Unset = UNSET,
    vcenter: int | Unset = UNSET,
) -> Response[Error | PaginatedPCIDeviceList]:
    """Devices hosts hand to VMs whole (DirectPath I/O) or share as vGPUs, as discovery found them.

    Args:
        host (int | Unset):
        kind (PciDevicesListKind | Unset):
        limit (int | Unset):
        mode (PciDevicesListMode | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        pci_id (str | Unset):
        vcenter (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedPCIDeviceList]
    """

    kwargs = _get_kwargs(
        host=host,
        kind=kind,
        limit=limit,
        mode=mode,
        offset=offset,
        ordering=ordering,
        pci_id=pci_id,
        vcenter=vcenter,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    host: int | Unset = UNSET,
    kind: PciDevicesListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    mode: PciDevicesListMode | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    pci_id: str | Unset = UNSET,
    vcenter: int | Unset = UNSET,
) -> Error | PaginatedPCIDeviceList | None:
    """Devices hosts hand to VMs whole (DirectPath I/O) or share as vGPUs, as discovery found them.

    Args:
        host (int | Unset):
        kind (PciDevicesListKind | Unset):
        limit (int | Unset):
        mode (PciDevicesListMode | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        pci_id (str | Unset):
        vcenter (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedPCIDeviceList
    """

    return (
        await asyncio_detailed(
            client=client,
            host=host,
            kind=kind,
            limit=limit,
            mode=mode,
            offset=offset,
            ordering=ordering,
            pci_id=pci_id,
            vcenter=vcenter,
        )
    ).parsed
