"""Firewall workflows by name: policies of a tenant (or of the site), rules by name within a policy, groups and
services by name. Rules keep their stable ids; their order is the explicit `sequence`. The client's endpoints and
models are imported where they are used, as in enclave_cli.workflows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from enclave_cli.api import Api
from enclave_cli.errors import CliError
from enclave_cli.workflows import tenant, typed

if TYPE_CHECKING:
    from enclave_client.models.firewall_policy import FirewallPolicy
    from enclave_client.models.firewall_rule import FirewallRule


@dataclass
class Names:
    """Id <-> name of the groups and services a tenant's rules may name (its own and the site's)."""

    groups: dict[int, str]
    services: dict[int, str]

    def group_ids(self, names: list[str]) -> list[int]:
        """Group ids for names; an unknown name is a CliError."""
        return [_lookup(self.groups, name, "group") for name in names]

    def service_ids(self, names: list[str]) -> list[int]:
        """Service ids for names; an unknown name is a CliError."""
        return [_lookup(self.services, name, "service") for name in names]


def _lookup(table: dict[int, str], name: str, what: str) -> int:
    found = [key for key, value in table.items() if value == name]
    if not found:
        raise CliError(f"no {what} named {name!r}")
    return found[0]


def names(api: Api, tenant_id: int | None) -> Names:
    """The groups (the tenant's first, then the site's) and services that rules may name."""
    from enclave_client.api.groups import groups_list
    from enclave_client.api.services import services_list

    own = api.all(groups_list, tenant=tenant_id) if tenant_id else []
    site = api.all(groups_list, site=True)
    groups = {g.id: g.name for g in site} | {g.id: g.name for g in own}
    return Names(groups, {s.id: s.name for s in api.all(services_list)})


def policies(api: Api, slug: str | None) -> list[FirewallPolicy]:
    """A tenant's policies, or the site's without a tenant."""
    from enclave_client.api.firewall_policies import firewall_policies_list

    filters = {"tenant": tenant(api, slug).id} if slug else {"site": True}
    return sorted(api.all(firewall_policies_list, **filters), key=lambda p: (p.sequence, p.id))


def policy(api: Api, slug: str | None, name: str) -> FirewallPolicy:
    """A policy by name within a tenant (or the site)."""
    found = [p for p in policies(api, slug) if p.name == name]
    if not found:
        where = f"tenant {slug!r}" if slug else "the site"
        raise CliError(f"no firewall policy named {name!r} in {where} (enclave rules policies lists them)")
    return found[0]


def rules(api: Api, slug: str | None, policy_name: str | None) -> list[FirewallRule]:
    """Rules of one policy, or of every policy of the tenant (or the site), in policy and sequence order."""
    from enclave_client.api.firewall_rules import firewall_rules_list

    chosen = [policy(api, slug, policy_name)] if policy_name else policies(api, slug)
    rows = []
    for found in chosen:
        rows.extend(sorted(api.all(firewall_rules_list, policy=found.id), key=lambda r: (r.sequence, r.id)))
    return rows


def rule(api: Api, slug: str | None, policy_name: str, name: str) -> FirewallRule:
    """A rule by name within a policy."""
    found = [r for r in rules(api, slug, policy_name) if r.name == name]
    if not found:
        raise CliError(f"no rule named {name!r} in policy {policy_name!r}")
    return found[0]


def _references(api: Api, slug: str | None, spec: dict) -> dict:
    """Replace group and service names by ids (sources, destinations, services)."""
    body = {key: value for key, value in spec.items() if value is not None}
    wanted = [key for key in ("sources", "destinations", "services") if key in body]
    if wanted:
        table = names(api, tenant(api, slug).id if slug else None)
        for key in wanted:
            lookup = table.service_ids if key == "services" else table.group_ids
            body[key] = lookup(body[key])
    return body


def create_rule(api: Api, slug: str | None, policy_name: str, spec: dict) -> FirewallRule:
    """Add a rule to a policy; `spec` names groups and services by name."""
    from enclave_client.api.firewall_rules import firewall_rules_create
    from enclave_client.models.firewall_rule_request import FirewallRuleRequest

    found = policy(api, slug, policy_name)
    body = _references(api, slug, spec) | {"policy": found.id}
    return api.call(firewall_rules_create, body=typed(FirewallRuleRequest, body))


def update_rule(api: Api, slug: str | None, policy_name: str, name: str, spec: dict) -> FirewallRule:
    """Change only the given fields of a rule; its id stays."""
    from enclave_client.api.firewall_rules import firewall_rules_partial_update
    from enclave_client.models.patched_firewall_rule_request import PatchedFirewallRuleRequest

    found = rule(api, slug, policy_name, name)
    body = typed(PatchedFirewallRuleRequest, _references(api, slug, spec))
    return api.call(firewall_rules_partial_update, found.id, body=body, what=f"rule {name}")


def delete_rule(api: Api, slug: str | None, policy_name: str, name: str) -> FirewallRule:
    """Delete a rule; the deleted rule is returned for the record."""
    from enclave_client.api.firewall_rules import firewall_rules_destroy

    found = rule(api, slug, policy_name, name)
    api.call(firewall_rules_destroy, found.id, what=f"rule {name}")
    return found
