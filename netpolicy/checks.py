"""Writes are checked by compiling what they affect; reads build the site tenant by tenant and never 500.

A change to a tenant's objects compiles that tenant (with the site policies); a change to a site object
(service, site group, site policy or rule) compiles the whole site. The change is refused, with the
compiler's message, when it breaks a policy that compiled before it, so an admin can still repair a site
that older data broke. Reads quarantine a tenant whose own policy does not compile (all its traffic is
rejected on nodes, its rules say why) instead of failing for everyone.
"""

from contextlib import contextmanager

from netpolicy.compiler import nft, nsx
from netpolicy.compiler.model import PolicyError
from netpolicy.findings import readable
from netpolicy.ir import Isolated, build_site, build_site_isolating
from portal.errors import InvalidRequest, ServiceError
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
    """What does not compile now in a change's scope: {tenant pk, or SITE: the compiler's message}."""
    if tenant_id is not None:
        try:
            _compile(build_site(Tenant.objects.filter(pk=tenant_id)))
        except PolicyError as exc:
            return {tenant_id: str(exc)}
        return {}
    try:
        built = build_site_isolating()
        _compile(built.site)
    except PolicyError as exc:
        return {SITE: str(exc)}
    return dict(built.broken)


@contextmanager
def compiling(tenant_id: int | None):
    """Refuse the change made in the block (inside its transaction) if it breaks what compiled before."""
    before = problems(tenant_id)
    yield
    new = [message for key, message in problems(tenant_id).items() if key not in before]
    if new:
        raise InvalidRequest(f"Refused: the policy would no longer compile: {readable(new[0])}")


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
        f"fixes it: {readable(str(exc))}"
    )


def quarantine_note(tenant_slug: str, message: str) -> str:
    """What a quarantined tenant's rules and pages say."""
    return (
        f"The policy of tenant {tenant_slug} does not compile, so nodes reject all of its traffic until it is "
        f"fixed: {message}"
    )
