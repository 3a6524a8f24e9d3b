from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.fabric_credential_answer import FabricCredentialAnswer
from ...types import Response


def _get_kwargs(
    fabric: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/fabric-agents/{fabric}/credential".format(
            fabric=quote(str(fabric), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | FabricCredentialAnswer | None:
    if response.status_code == 201:
        response_201 = FabricCredentialAnswer.from_dict(response.json())

        return response_201

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | FabricCredentialAnswer]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    fabric: str,
    *,
    client: AuthenticatedClient,
) -> Response[Error | FabricCredentialAnswer]:
    """POST with the current (or, in the grace period, the previous) credential: get a new one.

    Args:
        fabric (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | FabricCredentialAnswer]
    """

    kwargs = _get_kwargs(
        fabric=fabric,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    fabric: str,
    *,
    client: AuthenticatedClient,
) -> Error | FabricCredentialAnswer | None:
    """POST with the current (or, in the grace period, the previous) credential: get a new one.

    Args:
        fabric (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | FabricCredentialAnswer
    """

    return sync_detailed(
        fabric=fabric,
        client=client,
    ).parsed


async def asyncio_detailed(
    fabric: str,
    *,
    client: AuthenticatedClient,
) -> Response[Error | FabricCredentialAnswer]:
    """POST with the current (or, in the grace period, the previous) credential: get a new one.

    Args:
        fabric (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | FabricCredentialAnswer]
    """

    kwargs = _get_kwargs(
        fabric=fabric,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    fabric: str,
    *,
    client: AuthenticatedClient,
) -> Error | FabricCredentialAnswer | None:
    """POST with the current (or, in the grace period, the previous) credential: get a new one.

    Args:
        fabric (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | FabricCredentialAnswer
    """

    return (
        await asyncio_detailed(
            fabric=fabric,
            client=client,
        )
    ).parsed
