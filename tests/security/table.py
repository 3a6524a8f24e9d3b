"""The abuse table: every app's entries merged (like tests/access.py merges the access matrix).

To add entries, edit the app's module in tests/security/entries/; each module defines
- ENTRIES:  a list of `Abuse` (tests/security/framework.py says what each field means);
- PENDING:  {route or (route, field): "who fixes it"} for writes whose attack is not refused yet
            (the fix belongs to another branch); the coverage test accepts them, and they must go
            once that branch lands with its entries;
- EXEMPT:   {route or (route, field): "why"} for writes that are no attack surface at all;
- add_objects(world): the app's objects the entries name, as attributes of the world.
"""

from tests.security.entries import (
    agents,
    catalog,
    fabrics,
    identity,
    netpolicy,
    notices,
    nsx,
    tenants,
    users,
    vsphere,
    webhooks,
)

MODULES = (tenants, users, netpolicy, agents, vsphere, catalog, notices, identity, nsx, webhooks, fabrics)

ENTRIES = [entry for module in MODULES for entry in module.ENTRIES]
PENDING = {key: why for module in MODULES for key, why in module.PENDING.items()}
EXEMPT = {key: why for module in MODULES for key, why in module.EXEMPT.items()}
