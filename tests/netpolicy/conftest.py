"""Fixtures for the pure compiler tests: sample sites and a throwaway network namespace."""

import pytest

from tests.netpolicy.builders import Netns, custom_policy, make_site, make_tenant


@pytest.fixture
def default_site():
    """Two tenants with only the default isolation policy."""
    return make_site([make_tenant("acme", 1), make_tenant("beta", 2)])


@pytest.fixture
def custom_site():
    """Three tenants, two with custom policies on top of the default."""
    tenants = [
        make_tenant("acme", 1, (custom_policy("acme", 1),)),
        make_tenant("beta", 2),
        make_tenant("gamma", 3, (custom_policy("gamma", 3),)),
    ]
    return make_site(tenants)


@pytest.fixture
def netns():
    """A throwaway namespace so nft never touches the host's rulesets."""
    ns = Netns()
    try:
        yield ns
    finally:
        ns.close()
