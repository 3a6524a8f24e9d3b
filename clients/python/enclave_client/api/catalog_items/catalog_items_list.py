from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.catalog_items_list_visibility import CatalogItemsListVisibility
from ...models.error import Error
from ...models.paginated_catalog_item_list import PaginatedCatalogItemList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    active: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    q: str | Unset = UNSET,
    slug: str | Unset = UNSET,
    visibility: CatalogItemsListVisibility | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["active"] = active

    params["limit"] = limit

    params["offset"] = offset

    params["ordering"] = ordering

    params["q"] = q

    params["slug"] = slug

    json_visibility: str | Unset = UNSET
    if not isinstance(visibility, Unset):
        json_visibility = visibility.value

    params["visibility"] = json_visibility

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/catalog-items/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PaginatedCatalogItemList | None:
    if response.status_code == 200:
        response_200 = PaginatedCatalogItemList.from_dict(response.json())

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
) -> Response[Error | PaginatedCatalogItemList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    active: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    q: str | Unset = UNSET,
    slug: str | Unset = UNSET,
    visibility: CatalogItemsListVisibility | Unset = UNSET,
) -> Response[Error | PaginatedCatalogItemList]:
    """Catalog items; an item another tenant sees but yours does not is a 404.

    Args:
        active (bool | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        q (str | Unset):
        slug (str | Unset):
        visibility (CatalogItemsListVisibility | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedCatalogItemList]
    """

    kwargs = _get_kwargs(
        active=active,
        limit=limit,
        offset=offset,
        ordering=ordering,
        q=q,
        slug=slug,
        visibility=visibility,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    active: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    q: str | Unset = UNSET,
    slug: str | Unset = UNSET,
    visibility: CatalogItemsListVisibility | Unset = UNSET,
) -> Error | PaginatedCatalogItemList | None:
    """Catalog items; an item another tenant sees but yours does not is a 404.

    Args:
        active (bool | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        q (str | Unset):
        slug (str | Unset):
        visibility (CatalogItemsListVisibility | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedCatalogItemList
    """

    return sync_detailed(
        client=client,
        active=active,
        limit=limit,
        offset=offset,
        ordering=ordering,
        q=q,
        slug=slug,
        visibility=visibility,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    active: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    q: str | Unset = UNSET,
    slug: str | Unset = UNSET,
    visibility: CatalogItemsListVisibility | Unset = UNSET,
) -> Response[Error | PaginatedCatalogItemList]:
    """Catalog items; an item another tenant sees but yours does not is a 404.

    Args:
        active (bool | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        q (str | Unset):
        slug (str | Unset):
        visibility (CatalogItemsListVisibility | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedCatalogItemList]
    """

    kwargs = _get_kwargs(
        active=active,
        limit=limit,
        offset=offset,
        ordering=ordering,
        q=q,
        slug=slug,
        visibility=visibility,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    active: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    q: str | Unset = UNSET,
    slug: str | Unset = UNSET,
    visibility: CatalogItemsListVisibility | Unset = UNSET,
) -> Error | PaginatedCatalogItemList | None:
    """Catalog items; an item another tenant sees but yours does not is a 404.

    Args:
        active (bool | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        q (str | Unset):
        slug (str | Unset):
        visibility (CatalogItemsListVisibility | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedCatalogItemList
    """

    return (
        await asyncio_detailed(
            client=client,
            active=active,
            limit=limit,
            offset=offset,
            ordering=ordering,
            q=q,
            slug=slug,
            visibility=visibility,
        )
    ).parsed
