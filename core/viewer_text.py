"""Text built from site-wide data, rendered for one viewer: what another tenant owns reads "another tenant".

A message that can mention more than one tenant (lint findings, node errors, what-if answers) is kept
as parts: plain strings (the site's own words) and `Ref`s, each a piece of text owned by one tenant (its
slug, an object's name, a subnet, an error its network produced). `render_for` is the one place such a
message becomes text, and it needs a `Viewer`: a site admin reads every part, anyone else reads the parts
of their own tenants and of the site, and in place of another tenant's part only that part's `hidden`
words, which never carry a name, an id or an address. Stored messages keep their parts (`dump`/`load`),
so the choice is made when someone reads, never when the message is written.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

OTHER_TENANT = "another tenant"
OTHER_NETWORK = "another tenant's network"
OTHER_OBJECT = "an object of another tenant"


@dataclass(frozen=True)
class Viewer:
    """Who reads: a site admin reads everything; anyone else what their tenants and the site own."""

    tenants: frozenset = frozenset()
    admin: bool = False

    def sees(self, tenant_id) -> bool:
        """Whether a part owned by this tenant (None: the site) is shown as it is."""
        return self.admin or tenant_id is None or tenant_id in self.tenants


SITE_ADMIN = Viewer(admin=True)


@dataclass(frozen=True)
class Ref:
    """A piece of text owned by one tenant (None: the site), and what other viewers read instead."""

    tenant: int | None
    text: str
    hidden: str = OTHER_TENANT


def tenant(pk: int, slug: str) -> Ref:
    """A tenant's name."""
    return Ref(pk, slug)


def owned(pk: int | None, text: str, hidden: str = OTHER_OBJECT) -> Ref:
    """Any text of a tenant's: an object's name, a subnet, an error its network produced."""
    return Ref(pk, text, hidden)


def render_for(viewer: Viewer, parts: Iterable) -> str:
    """The message as this viewer may read it."""
    return "".join(p if isinstance(p, str) else (p.text if viewer.sees(p.tenant) else p.hidden) for p in parts)


def by_tenant_for(viewer: Viewer, texts: Mapping) -> dict:
    """Of texts kept per tenant (keys: tenant ids, as int or str), only those this viewer may read."""
    return {key: value for key, value in texts.items() if viewer.sees(_tenant_key(key))}


def _tenant_key(key):
    """A JSON object's key back to a tenant id; an unknown key is nobody's, so nobody but admins reads it."""
    try:
        return int(key)
    except (TypeError, ValueError):
        return -1


def dump(parts: Iterable) -> list:
    """Parts as JSON: strings as they are, refs as [tenant, text, hidden]."""
    return [p if isinstance(p, str) else [p.tenant, p.text, p.hidden] for p in parts]


def load(data) -> tuple:
    """Parts back from `dump`'s JSON (anything else is one plain string)."""
    if isinstance(data, str):
        return (data,)
    return tuple(p if isinstance(p, str) else Ref(p[0], p[1], p[2]) for p in data or ())
