"""What the site can realize: the request form shows it, submit and approval refuse what no site can do.

Each site kind registers one provider from its AppConfig.ready(); this module never imports them, so
`tenants` stays free of app cycles. Providers read their inventory from PostgreSQL only: the form and
the services never wait on vSphere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class Option:
    """One value of one request field (e.g. interconnect=pvrdma): offered here or not, and why."""

    field: str
    value: str
    available: bool
    detail: str = ""  # where and how much when offered, the reason when not


@dataclass
class SiteOffers:
    """Every option a site offers or explains, plus its vGPU profiles."""

    site: str
    options: dict[tuple[str, str], Option] = field(default_factory=dict)
    vgpu_profiles: list[dict] = field(default_factory=list)  # name, gpu_model, framebuffer_gib, per_gpu, free

    def add(self, field_name: str, value: str, available: bool, detail: str = "") -> None:
        self.options[(field_name, value)] = Option(field_name, value, available, detail)

    def get(self, field_name: str, value: str) -> Option | None:
        return self.options.get((field_name, value))

    def offered(self, field_name: str, value: str) -> bool:
        """Whether the value is realizable here (values the site does not govern always are)."""
        option = self.get(field_name, value)
        return option is None or option.available


class Provider(Protocol):
    """A site kind's view of what it can realize (registered by the site app)."""

    def has_site(self) -> bool:
        """Whether a site of this kind is registered (else it neither offers nor refuses)."""

    def offers(self) -> SiteOffers:
        """What the site offers now (called only when it has a site)."""

    def refusals(self, cluster) -> list[str]:
        """Why the site could never realize this request as asked (empty when it can, capacity aside)."""


_PROVIDERS: list[Provider] = []


def register(provider: Provider) -> None:
    """Make a site kind's provider known (from the site app's AppConfig.ready)."""
    if provider not in _PROVIDERS:
        _PROVIDERS.append(provider)


def site_offers() -> list[SiteOffers]:
    """What every registered site offers (an empty list: no site yet, nothing can be checked)."""
    return [provider.offers() for provider in _PROVIDERS if provider.has_site()]


def refusals(cluster) -> list[str]:
    """Reasons no registered site can realize the request; empty if one can or none is registered."""
    reasons: list[str] = []
    for provider in _PROVIDERS:
        if not provider.has_site():
            continue
        found = provider.refusals(cluster)
        if not found:
            return []
        reasons += found
    return reasons
