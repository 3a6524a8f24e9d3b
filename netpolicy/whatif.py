"""What-if: site admins ask about any traffic; everyone else only about traffic of their own tenants.

A non-admin's question is answered on a site built from their own tenants only, so the answer can only
ever come from their tenants' rules or the site policies (which everyone sees): another tenant's
addresses, rules and verdicts are never consulted, and a question about them is refused without
saying whose they are.
"""

import ipaddress

from django.db.models import Q

from core.errors import Forbidden, InvalidRequest
from netpolicy.checks import site_for_reading
from netpolicy.compiler import analysis
from netpolicy.compiler.model import PolicyError
from netpolicy.ir import QUARANTINE
from netpolicy.models import LIVE, FirewallRule, Segment
from netpolicy.names import Names
from tenants.access import is_site_admin, tenant_ids, viewer
from tenants.models import Tenant

OUTSIDE = ("Only your side is answered: the {side} is not in one of your tenants' segments, so what the site "
           "and your tenant decide is shown, not what its owner decides.")  # fmt: skip


def answer(user, source: str, destination: str, protocol: str, port: int | None) -> dict:
    """The decision, where it is taken and the deciding rule (with a note when only one side is the user's)."""
    admin = is_site_admin(user)
    ids = _holding(source, destination) if admin else tenant_ids(user)
    site = site_for_reading(Tenant.objects.filter(pk__in=ids).order_by("pk")).site
    note = ""
    if not admin:
        mine = [analysis.tenant_of(site, address) is not None for address in (source, destination)]
        if not any(mine):
            raise Forbidden(
                "What-if answers questions about your own tenants' traffic: the source or the "
                "destination must be an address in one of your tenants' segments."
            )
        if not all(mine):
            note = OUTSIDE.format(side="destination" if mine[0] else "source")
    try:
        decision = analysis.what_if(site, source, destination, protocol, port)
    except PolicyError as exc:
        raise InvalidRequest(str(exc)) from None
    return _describe(user, decision, note)


def _holding(*addresses: str) -> list[int]:
    """The tenants whose live segments hold any of the addresses: the only ones whose rules can decide.

    An admin's question was answered on the whole site, built per question (over 10 s at 10,000
    tenants); the site policies and these tenants give the same answer (the owner is looked up among
    them in the same order).
    """
    held = Q(pk__in=[])
    for text in addresses:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue  # what_if names the bad address
        host = ipaddress.ip_network((int(address), address.max_prefixlen))  # without an IPv6 scope id
        held |= Q(subnet__net_overlaps=str(host))
    return list(Segment.objects.filter(LIVE).filter(held).values_list("tenant_id", flat=True).distinct())


def _describe(user, decision, note: str) -> dict:
    names = Names([decision.where])
    rule = None
    if decision.rule and decision.rule[1:].isdigit():
        rule = FirewallRule.objects.select_related("policy__tenant").filter(pk=int(decision.rule[1:])).first()
    visible = rule is not None and (is_site_admin(user) or rule.policy.tenant_id in tenant_ids(user) | {None})
    if decision.rule == QUARANTINE:
        rule_name = "quarantine: the tenant's policy does not compile, so all its traffic is rejected"
    else:
        rule_name = rule.name if visible else ("a rule of another tenant" if rule else "")
    return {
        "action": decision.action.value,
        "where": names.readable(decision.where, viewer(user)),
        "rule": rule.pk if visible else None,
        "rule_name": rule_name,
        "policy": str(rule.policy) if visible else None,
        "note": note,
    }
