"""IR ids in compiler messages (r12, p3, q5, t7) turned into names, as a viewer may read them (core.viewer_text).

The compilers speak in IR ids; people read names. A name belongs to its tenant: another tenant's rule,
policy or quarantine is named only to that tenant's members and the site admins.
"""

import re
from collections import defaultdict

from core import viewer_text
from core.viewer_text import Viewer
from netpolicy.models import FirewallPolicy, FirewallRule
from tenants.models import Tenant

TOKEN = re.compile(r"\b([rpqt])(\d+)\b")


class Names:
    """IR ids (r12, p3, q5, t7) in messages replaced by names owned by their tenants, in three queries for all."""

    def __init__(self, messages, tenants=()):
        ids = defaultdict(set, t=set(tenants))
        for message in messages:
            for kind, number in TOKEN.findall(message):
                ids[kind].add(int(number))
        self.rules = FirewallRule.objects.select_related("policy").in_bulk(ids["r"]) if ids["r"] else {}
        self.policies = FirewallPolicy.objects.select_related("tenant").in_bulk(ids["p"]) if ids["p"] else {}
        wanted = ids["t"] | ids["q"]
        self.tenants = dict(Tenant.objects.filter(pk__in=wanted).values_list("pk", "slug")) if wanted else {}

    def tenant_ref(self, pk: int) -> viewer_text.Ref:
        return viewer_text.tenant(pk, self.tenants.get(pk) or f"t{pk}")

    def _part(self, kind: str, pk: int, token: str):
        """The name an IR id stands for, owned by its tenant (an unknown id stays as it is)."""
        if kind == "r" and pk in self.rules:
            return viewer_text.owned(
                self.rules[pk].policy.tenant_id, f"'{self.rules[pk].name}'", "a rule of another tenant"
            )
        if kind == "p" and pk in self.policies:
            policy = self.policies[pk]
            return viewer_text.owned(policy.tenant_id, str(policy), "a policy of another tenant")
        if kind == "t" and pk in self.tenants:
            return viewer_text.tenant(pk, self.tenants[pk])
        if kind == "q" and pk in self.tenants:
            return viewer_text.owned(pk, f"{self.tenants[pk]}/quarantine", "another tenant's quarantine")
        if kind in "tq":
            return viewer_text.tenant(pk, token)  # a tenant gone meanwhile: its id is still its own
        return token

    def parts(self, message: str) -> list:
        """The message as parts: the compiler's words, and names owned by their tenants."""
        out, at = [], 0
        for match in TOKEN.finditer(message):
            out += [message[at : match.start()], self._part(match[1], int(match[2]), match[0])]
            at = match.end()
        return [*out, message[at:]]

    def readable(self, message: str, viewer: Viewer) -> str:
        return viewer_text.render_for(viewer, self.parts(message))


def readable(message: str, viewer: Viewer) -> str:
    """One message with its IR ids replaced by names, as the viewer may read them."""
    return Names([message]).readable(message, viewer)


def scope_viewer(tenant_id: int | None) -> Viewer:
    """Who reads a refusal about one scope's part (a tenant's, or None: the site's): that scope only."""
    return Viewer(frozenset() if tenant_id is None else frozenset({tenant_id}))
