from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.audit_events_export_retrieve_as import AuditEventsExportRetrieveAs
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    as_: AuditEventsExportRetrieveAs | Unset = AuditEventsExportRetrieveAs.CSV,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_as_: str | Unset = UNSET
    if not isinstance(as_, Unset):
        json_as_ = as_.value

    params["as"] = json_as_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/audit-events/export/",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | str | None:
    if response.status_code == 200:
        response_200 = response.text
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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    as_: AuditEventsExportRetrieveAs | Unset = AuditEventsExportRetrieveAs.CSV,
) -> Response[Error | str]:
    """Download the (filtered) events as CSV or JSON.

    Args:
        as_ (AuditEventsExportRetrieveAs | Unset):  Default: AuditEventsExportRetrieveAs.CSV.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | str]
    """

    kwargs = _get_kwargs(
        as_=as_,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    as_: AuditEventsExportRetrieveAs | Unset = AuditEventsExportRetrieveAs.CSV,
) -> Error | str | None:
    """Download the (filtered) events as CSV or JSON.

    Args:
        as_ (AuditEventsExportRetrieveAs | Unset):  Default: AuditEventsExportRetrieveAs.CSV.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | str
    """

    return sync_detailed(
        client=client,
        as_=as_,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    as_: AuditEventsExportRetrieveAs | Unset = AuditEventsExportRetrieveAs.CSV,
) -> Response[Error | str]:
    """Download the (filtered) events as CSV or JSON.

    Args:
        as_ (AuditEventsExportRetrieveAs | Unset):  Default: AuditEventsExportRetrieveAs.CSV.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | str]
    """

    kwargs = _get_kwargs(
        as_=as_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    as_: AuditEventsExportRetrieveAs | Unset = AuditEventsExportRetrieveAs.CSV,
) -> Error | str | None:
    """Download the (filtered) events as CSV or JSON.

    Args:
        as_ (AuditEventsExportRetrieveAs | Unset):  Default: AuditEventsExportRetrieveAs.CSV.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | str
    """

    return (
        await asyncio_detailed(
            client=client,
            as_=as_,
        )
    ).parsed
