"""Webhook workflows by name: webhooks by name within a tenant (or the site: tenant null), their signing secrets,
test deliveries and the delivery log. The client's endpoints and models are imported where they are used, as in
enclave_cli.workflows."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from enclave_cli.api import Api
from enclave_cli.errors import CliError, TimedOut
from enclave_cli.workflows import me, tenant, typed

if TYPE_CHECKING:
    from enclave_client.models.delivery import Delivery
    from enclave_client.models.webhook import Webhook
    from enclave_client.models.webhook_created import WebhookCreated

CONDITION_KEYS = ("states", "objects", "tenants")


def where(slug: str | None) -> str:
    return f"tenant {slug!r}" if slug else "the site"


def is_site(hook) -> bool:
    """A site webhook has no tenant."""
    return not isinstance(hook.tenant, int)


def webhooks(api: Api, slug: str | None = None, site: bool = False) -> list[Webhook]:
    """The webhooks of one tenant, of the site, or all the user manages (owners: their tenants'; admins: all)."""
    from enclave_client.api.webhooks import webhooks_list

    if slug:
        return api.all(webhooks_list, tenant=tenant(api, slug).id)
    rows = api.all(webhooks_list)
    return [r for r in rows if is_site(r)] if site else rows


def webhook(api: Api, slug: str | None, name: str) -> Webhook:
    """A webhook by name within a tenant (or the site), or a CliError naming it."""
    from enclave_client.api.webhooks import webhooks_list

    filters = {"tenant": tenant(api, slug).id} if slug else {}
    rows = [r for r in api.all(webhooks_list, name=name, **filters) if r.name == name and (slug or is_site(r))]
    if not rows:
        raise CliError(f"no webhook named {name!r} in {where(slug)} (enclave webhooks list shows those you manage)")
    return rows[0]


def check_manager(api: Api, slug: str | None) -> None:
    """Owners manage their tenants' webhooks, site admins every one: say so before the server refuses."""
    found = me(api)
    if found.is_site_admin:
        return
    if slug is None:
        raise CliError("site webhooks are for site admins; give --tenant SLUG for one of your tenants")
    if not any(m.slug == slug and str(m.role) == "owner" for m in found.memberships):
        raise CliError(f"only the owners (PIs) of tenant {slug!r} and site admins manage its webhooks")


def conditions(states=(), objects=(), tenants=()) -> dict:
    """The conditions given (repeatable options); keys left out are not sent."""
    given = {"states": list(states), "objects": list(objects), "tenants": list(tenants)}
    return {key: value for key, value in given.items() if value}


def create_webhook(api: Api, slug: str | None, spec: dict) -> WebhookCreated:
    """A new webhook in a tenant (or the site); the answer's `secret` is shown this once."""
    from enclave_client.api.webhooks import webhooks_create
    from enclave_client.models.webhook_request import WebhookRequest

    tenant_id = tenant(api, slug).id if slug else None
    check_manager(api, slug)
    body = {key: value for key, value in spec.items() if value is not None} | {"tenant": tenant_id}
    return api.call(webhooks_create, body=typed(WebhookRequest, body))


def update_webhook(api: Api, slug: str | None, name: str, fields: dict, given: dict, clear: bool) -> Webhook:
    """Change the given fields; conditions given replace those keys (all of them with `clear`)."""
    from enclave_client.api.webhooks import webhooks_partial_update
    from enclave_client.models.patched_webhook_request import PatchedWebhookRequest

    found = webhook(api, slug, name)
    body = dict(fields)
    if given or clear:
        current = {} if clear else _plain(found.conditions)
        body["conditions"] = current | given
    if not body:
        raise CliError("nothing to change: give --url, --event, --enable/--disable, conditions or --rename")
    return api.call(webhooks_partial_update, found.id, body=typed(PatchedWebhookRequest, body), what=f"webhook {name}")


def _plain(obj) -> dict:
    """A model's fields; nothing for an absent one (None or the client's UNSET)."""
    return obj.to_dict() if hasattr(obj, "to_dict") else {}


def delete_webhook(api: Api, slug: str | None, name: str) -> Webhook:
    """Delete a webhook, its secrets and its delivery log; the deleted webhook is returned for the record."""
    from enclave_client.api.webhooks import webhooks_destroy

    found = webhook(api, slug, name)
    api.call(webhooks_destroy, found.id, what=f"webhook {name}")
    return found


def rotate_secret(api: Api, slug: str | None, name: str) -> WebhookCreated:
    """A new signing secret (in the answer's `secret`, shown once); the old ones sign too for the overlap."""
    from enclave_client.api.webhooks import webhooks_rotate_secret_create

    found = webhook(api, slug, name)
    return api.call(webhooks_rotate_secret_create, found.id, what=f"webhook {name}")


def send_test(api: Api, found: Webhook) -> Delivery:
    """Queue a webhook.test delivery to the webhook's endpoint."""
    from enclave_client.api.webhooks import webhooks_test_create

    return api.call(webhooks_test_create, found.id, what=f"webhook {found.name}")


def deliveries(api: Api, found: Webhook, state: str | None = None, limit: int = 20) -> list[Delivery]:
    """The newest deliveries of a webhook, optionally only in one state."""
    from enclave_client.api.webhook_deliveries import webhook_deliveries_list
    from enclave_client.models.webhook_deliveries_list_state import WebhookDeliveriesListState

    filters = {"state": WebhookDeliveriesListState(state)} if state else {}
    return api.call(webhook_deliveries_list, webhook=found.id, limit=limit, **filters).results


def delivery(api: Api, delivery_id: int) -> Delivery:
    """One delivery as the server has it now."""
    from enclave_client.api.webhook_deliveries import webhook_deliveries_retrieve

    return api.call(webhook_deliveries_retrieve, delivery_id, what=f"delivery {delivery_id}")


def replay(api: Api, delivery_id: int) -> Delivery:
    """Send a finished delivery again: a new delivery with the same message id and payload."""
    from enclave_client.api.webhook_deliveries import webhook_deliveries_replay_create

    return api.call(webhook_deliveries_replay_create, delivery_id, what=f"delivery {delivery_id}")


@dataclass
class Followed:
    """A delivery in the shape the --wait display (enclave_cli.context.Progress) reads."""

    name: str
    state: str
    status_message: str
    generation: int = 0
    observed_generation: int = 0


def followed(found: Delivery) -> Followed:
    """What a wait shows of a delivery: its state, and after an attempt its count, code and error."""
    message = ""
    if found.attempts:
        message = f"attempt {found.attempts}"
        message += f", HTTP {found.response_code}" if found.response_code else ""
        message += f": {found.last_error}" if found.last_error else ""
    return Followed(f"delivery {found.id}", str(found.state), message)


def wait_delivery(api: Api, found: Delivery, timeout: float, interval: float, progress: Callable) -> Delivery:
    """Poll a delivery until it succeeded; failed is a CliError, and so is the timeout (exit 3)."""
    deadline = time.monotonic() + timeout
    while True:
        found = delivery(api, found.id)
        shown = followed(found)
        progress(shown)
        if shown.state == "succeeded":
            return found
        if shown.state == "failed":
            raise CliError(f"delivery {found.id} failed" + (f" ({shown.status_message})" if found.attempts else ""))
        if time.monotonic() >= deadline:
            raise TimedOut(f"timed out after {timeout:g}s waiting for delivery {found.id} to succeed or fail; "
                           f"it is {shown.state}")  # fmt: skip
        time.sleep(min(interval, max(deadline - time.monotonic(), 0.05)))
