from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.firewall_policies_list_category import FirewallPoliciesListCategory
from ...models.paginated_firewall_policy_list import PaginatedFirewallPolicyList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    category: FirewallPoliciesListCategory | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    site: bool | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_category: str | Unset = UNSET
    if not isinstance(category, Unset):
        json_category = category.value

    params["category"] = json_category

    params["limit"] = limit

    params["offset"] = offset

    params["ordering"] = ordering

    params["site"] = site

    params["tenant"] = tenant

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/firewall-policies/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PaginatedFirewallPolicyList | None:
    if response.status_code == 200:
        response_200 = PaginatedFirewallPolicyList.from_dict(response.json())

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
) -> Response[Error | PaginatedFirewallPolicyList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    category: FirewallPoliciesListCategory | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    site: bool | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> Response[Error | PaginatedFirewallPolicyList]:
    """Objects of the user's tenants plus site-wide ones (tenant is null); others are 404.

    Args:
        category (FirewallPoliciesListCategory | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        site (bool | Unset):
        tenant (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedFirewallPolicyList]
    """

    kwargs = _get_kwargs(
        category=category,
        limit=limit,
        offset=offset,
        ordering=ordering,
        site=site,
        tenant=tenant,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    category: FirewallPoliciesListCategory | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    site: bool | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> Error | PaginatedFirewallPolicyList | None:
    """Objects of the user's tenants plus site-wide ones (tenant is null); others are 404.

    Args:
        category (FirewallPoliciesListCategory | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        site (bool | Unset):
        tenant (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedFirewallPolicyList
    """

    return sync_detailed(
        client=client,
        category=category,
        limit=limit,
        offset=offset,
        ordering=ordering,
        site=site,
        tenant=tenant,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    category: FirewallPoliciesListCategory | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    site: bool | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> Response[Error | PaginatedFirewallPolicyList]:
    """Objects of the user's tenants plus site-wide ones (tenant is null); others are 404.

    Args:
        category (FirewallPoliciesListCategory | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        site (bool | Unset):
        tenant (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaginatedFirewallPolicyList]
    """

    kwargs = _get_kwargs(
        category=category,
        limit=limit,
        offset=offset,
        ordering=ordering,
        site=site,
        tenant=tenant,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    category: FirewallPoliciesListCategory | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    site: bool | Unset = UNSET,
    tenant: int | Unset = UNSET,
) -> Error | PaginatedFirewallPolicyList | None:
    """Objects of the user's tenants plus site-wide ones (tenant is null); others are 404.

    Args:
        category (FirewallPoliciesListCategory | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        site (bool | Unset):
        tenant (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaginatedFirewallPolicyList
    """

    return (
        await asyncio_detailed(
            client=client,
            category=category,
            limit=limit,
            offset=offset,
            ordering=ordering,
            site=site,
            tenant=tenant,
        )
    ).parsed
