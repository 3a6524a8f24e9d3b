from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.paginated_delivery_list import PaginatedDeliveryList
from ...models.webhook_deliveries_list_event_type import WebhookDeliveriesListEventType
from ...models.webhook_deliveries_list_state import WebhookDeliveriesListState
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    event_type: WebhookDeliveriesListEventType | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    state: WebhookDeliveriesListState | Unset = UNSET,
    webhook: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_event_type: str | Unset = UNSET
    if not isinstance(event_type, Unset):
        json_event_type = event_type.value

    params["event_type"] = json_event_type

    params["limit"] = limit

    params["offset"] = offset

    params["ordering"] = ordering

    json_state: str | Unset = UNSET
    if not isinstance(state, Unset):
        json_state = state.value

    params["state"] = json_state

    params["webhook"] = webhook

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/webhook-deliveries/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PaginatedDeliveryList | None:
    if response.status_code == 200:
        response_200 = PaginatedDeliveryList.from_dict(response.json())

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
) -> Response[Error | PaginatedDeliveryList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    event_type: WebhookDeliveriesListEventType | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    state: WebhookDeliveriesListState | Unset = UNSET,
    webhook: int | Unset = UNSET,
) -> Response[Error | PaginatedDeliveryList]:
    """The delivery log of the webhooks the user manages: status, attempts, response code, duration.

    Args:
        event_type (WebhookDeliveriesListEventType | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        state (WebhookDeliveriesListState | Unset):
        webhook (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedDeliveryList]
    """

    kwargs = _get_kwargs(
        event_type=event_type,
        limit=limit,
        offset=offset,
        ordering=ordering,
        state=state,
        webhook=webhook,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    event_type: WebhookDeliveriesListEventType | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    state: WebhookDeliveriesListState | Unset = UNSET,
    webhook: int | Unset = UNSET,
) -> Error | PaginatedDeliveryList | None:
    """The delivery log of the webhooks the user manages: status, attempts, response code, duration.

    Args:
        event_type (WebhookDeliveriesListEventType | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        state (WebhookDeliveriesListState | Unset):
        webhook (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedDeliveryList
    """

    return sync_detailed(
        client=client,
        event_type=event_type,
        limit=limit,
        offset=offset,
        ordering=ordering,
        state=state,
        webhook=webhook,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    event_type: WebhookDeliveriesListEventType | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    state: WebhookDeliveriesListState | Unset = UNSET,
    webhook: int | Unset = UNSET,
) -> Response[Error | PaginatedDeliveryList]:
    """The delivery log of the webhooks the user manages: status, attempts, response code, duration.

    Args:
        event_type (WebhookDeliveriesListEventType | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        state (WebhookDeliveriesListState | Unset):
        webhook (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedDeliveryList]
    """

    kwargs = _get_kwargs(
        event_type=event_type,
        limit=limit,
        offset=offset,
        ordering=ordering,
        state=state,
        webhook=webhook,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    event_type: WebhookDeliveriesListEventType | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    state: WebhookDeliveriesListState | Unset = UNSET,
    webhook: int | Unset = UNSET,
) -> Error | PaginatedDeliveryList | None:
    """The delivery log of the webhooks the user manages: status, attempts, response code, duration.

    Args:
        event_type (WebhookDeliveriesListEventType | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        state (WebhookDeliveriesListState | Unset):
        webhook (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedDeliveryList
    """

    return (
        await asyncio_detailed(
            client=client,
            event_type=event_type,
            limit=limit,
            offset=offset,
            ordering=ordering,
            state=state,
            webhook=webhook,
        )
    ).parsed
