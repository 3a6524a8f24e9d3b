from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.fabric_agents_desired_retrieve_response_200 import FabricAgentsDesiredRetrieveResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    fabric: str,
    *,
    wait: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/fabric-agents/{fabric}/desired".format(
            fabric=quote(str(fabric), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | FabricAgentsDesiredRetrieveResponse200 | None:
    if response.status_code == 200:
        response_200 = FabricAgentsDesiredRetrieveResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

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
) -> Response[Any | Error | FabricAgentsDesiredRetrieveResponse200]:
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
    wait: int | Unset = UNSET,
) -> Response[Any | Error | FabricAgentsDesiredRetrieveResponse200]:
    """GET the fabric's desired partitions (fabric_wire's document); If-None-Match → 304, ?wait=N long-
    polls.

    Args:
        fabric (str):
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | FabricAgentsDesiredRetrieveResponse200]
    """

    kwargs = _get_kwargs(
        fabric=fabric,
        wait=wait,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    fabric: str,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
) -> Any | Error | FabricAgentsDesiredRetrieveResponse200 | None:
    """GET the fabric's desired partitions (fabric_wire's document); If-None-Match → 304, ?wait=N long-
    polls.

    Args:
        fabric (str):
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | FabricAgentsDesiredRetrieveResponse200
    """

    return sync_detailed(
        fabric=fabric,
        client=client,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    fabric: str,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
) -> Response[Any | Error | FabricAgentsDesiredRetrieveResponse200]:
    """GET the fabric's desired partitions (fabric_wire's document); If-None-Match → 304, ?wait=N long-
    polls.

    Args:
        fabric (str):
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | FabricAgentsDesiredRetrieveResponse200]
    """

    kwargs = _get_kwargs(
        fabric=fabric,
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    fabric: str,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
) -> Any | Error | FabricAgentsDesiredRetrieveResponse200 | None:
    """GET the fabric's desired partitions (fabric_wire's document); If-None-Match → 304, ?wait=N long-
    polls.

    Args:
        fabric (str):
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | FabricAgentsDesiredRetrieveResponse200
    """

    return (
        await asyncio_detailed(
            fabric=fabric,
            client=client,
            wait=wait,
        )
    ).parsed
