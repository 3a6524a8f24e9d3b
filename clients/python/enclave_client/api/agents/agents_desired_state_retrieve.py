from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.agents_desired_state_retrieve_response_200 import AgentsDesiredStateRetrieveResponse200
from ...models.agents_desired_state_retrieve_response_503 import AgentsDesiredStateRetrieveResponse503
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    node: str,
    *,
    wait: int | Unset = UNSET,
    enclave_wire: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(enclave_wire, Unset):
        headers["Enclave-Wire"] = enclave_wire

    params: dict[str, Any] = {}

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/agents/{node}/desired-state".format(
            node=quote(str(node), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AgentsDesiredStateRetrieveResponse200 | AgentsDesiredStateRetrieveResponse503 | Any | Error | None:
    if response.status_code == 200:
        response_200 = AgentsDesiredStateRetrieveResponse200.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = AgentsDesiredStateRetrieveResponse503.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[AgentsDesiredStateRetrieveResponse200 | AgentsDesiredStateRetrieveResponse503 | Any | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    node: str,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
    enclave_wire: str | Unset = UNSET,
) -> Response[AgentsDesiredStateRetrieveResponse200 | AgentsDesiredStateRetrieveResponse503 | Any | Error]:
    """GET the node's desired state; with If-None-Match and ?wait=N it long-polls until it changes.

    The document is compiled when intent changes (agents.refresh) and only read here.

    Args:
        node (str):
        wait (int | Unset):
        enclave_wire (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AgentsDesiredStateRetrieveResponse200 | AgentsDesiredStateRetrieveResponse503 | Any | Error]
    """

    kwargs = _get_kwargs(
        node=node,
        wait=wait,
        enclave_wire=enclave_wire,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    node: str,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
    enclave_wire: str | Unset = UNSET,
) -> AgentsDesiredStateRetrieveResponse200 | AgentsDesiredStateRetrieveResponse503 | Any | Error | None:
    """GET the node's desired state; with If-None-Match and ?wait=N it long-polls until it changes.

    The document is compiled when intent changes (agents.refresh) and only read here.

    Args:
        node (str):
        wait (int | Unset):
        enclave_wire (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AgentsDesiredStateRetrieveResponse200 | AgentsDesiredStateRetrieveResponse503 | Any | Error
    """

    return sync_detailed(
        node=node,
        client=client,
        wait=wait,
        enclave_wire=enclave_wire,
    ).parsed


async def asyncio_detailed(
    node: str,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
    enclave_wire: str | Unset = UNSET,
) -> Response[AgentsDesiredStateRetrieveResponse200 | AgentsDesiredStateRetrieveResponse503 | Any | Error]:
    """GET the node's desired state; with If-None-Match and ?wait=N it long-polls until it changes.

    The document is compiled when intent changes (agents.refresh) and only read here.

    Args:
        node (str):
        wait (int | Unset):
        enclave_wire (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AgentsDesiredStateRetrieveResponse200 | AgentsDesiredStateRetrieveResponse503 | Any | Error]
    """

    kwargs = _get_kwargs(
        node=node,
        wait=wait,
        enclave_wire=enclave_wire,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    node: str,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
    enclave_wire: str | Unset = UNSET,
) -> AgentsDesiredStateRetrieveResponse200 | AgentsDesiredStateRetrieveResponse503 | Any | Error | None:
    """GET the node's desired state; with If-None-Match and ?wait=N it long-polls until it changes.

    The document is compiled when intent changes (agents.refresh) and only read here.

    Args:
        node (str):
        wait (int | Unset):
        enclave_wire (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AgentsDesiredStateRetrieveResponse200 | AgentsDesiredStateRetrieveResponse503 | Any | Error
    """

    return (
        await asyncio_detailed(
            node=node,
            client=client,
            wait=wait,
            enclave_wire=enclave_wire,
        )
    ).parsed
