"""Writes are checked by compiling what they affect; reads build the site tenant by tenant and never 500.

A change to a tenant's objects compiles that tenant (with the site policies); a change to a site object
(service, site group, site policy or rule) compiles the site's part, which is all it can break. The
change is refused, with the compiler's message, when it breaks a policy that compiled before it, so an
admin can still repair a site that older data broke. Reads quarantine a tenant whose own policy does
not compile (all its traffic is rejected on nodes, its rules say why) instead of failing for everyone.
"""

from contextlib import contextmanager

from core.errors import InvalidRequest, ServiceError
from netpolicy.compiler import nft, nsx
from netpolicy.compiler.model import PolicyError
from netpolicy.ir import Isolated, build_site, build_site_isolating
from netpolicy.names import readable, scope_viewer
from tenants.models import Tenant

SITE = "site"


class SitePolicyBroken(ServiceError):
    """The site's own part (site policies, services, site groups) does not compile: nothing can be compiled."""

    status_code = 409
    code = "site_policy_broken"


def _compile(site) -> None:
    nft.compile_ruleset(site)
    nsx.export_infra(site)


def problems(tenant_id: int | None) -> dict:
    """What does not compile now in a change's scope: {tenant pk, or SITE: the compiler's message}.

    A site change (site policy or rule, service, site group) is checked on the site's part alone, not
    on every tenant (which took 20-40 s at 10,000 tenants): it cannot break a tenant whose part built
    before. A tenant's part names services and site groups but builds them as the site's part does,
    from the same rows (one IR object per row, names unique in the database); objects never move
    between tenants and the site; a used group cannot be deleted nor a service at all; and the
    compilers raise nothing for a part that built. So a site change that builds its own part leaves
    every tenant as it was (tests/netpolicy/test_site_change_check.py checks this on every tenant).
    """
    scope = Tenant.objects.none() if tenant_id is None else Tenant.objects.filter(pk=tenant_id)
    try:
        _compile(build_site(scope))
    except PolicyError as exc:
        return {SITE if tenant_id is None else tenant_id: str(exc)}
    return {}


@contextmanager
def compiling(tenant_id: int | None):
    """Refuse the change made in the block (inside its transaction) if it breaks what compiled before."""
    before = problems(tenant_id)
    yield
    new = [message for key, message in problems(tenant_id).items() if key not in before]
    if new:
        raise InvalidRequest(
            f"Refused: the policy would no longer compile: {readable(new[0], scope_viewer(tenant_id))}"
        )


def site_for_reading(tenants=None) -> Isolated:
    """The site for exports, what-if, lint and nodes: broken tenants quarantined; a broken site part is a 409."""
    try:
        return build_site_isolating(tenants)
    except PolicyError as exc:
        raise site_broken(exc) from None


def site_broken(exc: PolicyError) -> SitePolicyBroken:
    """The 409 for a site whose own part does not compile (callers that compile raise it too)."""
    return SitePolicyBroken(
        "The site policy does not compile, so nothing can be compiled until a site admin "
        f"fixes it: {readable(str(exc), scope_viewer(None))}"  # the site's part: site objects only
    )


def quarantine_note(tenant_slug: str, message: str) -> str:
    """What a quarantined tenant's rules and pages say."""
    return (
        f"The policy of tenant {tenant_slug} does not compile, so nodes reject all of its traffic until it is "
        f"fixed: {message}"
    )
