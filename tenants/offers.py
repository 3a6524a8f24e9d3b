"""What the sites can realize: the request form shows it, submit and approval refuse what no site can do.

Each site kind answers through its realizer (`tenants.realizers`: `offers()`, `refusals()`), reading its
inventory from PostgreSQL only: the form and the services never wait on vSphere.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tenants import realizers


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


def site_offers() -> list[SiteOffers]:
    """What every registered site offers (an empty list: no site yet, nothing can be checked)."""
    return [offer for realizer in realizers.sited() for offer in realizer.offers()]


def refusals(cluster) -> list[str]:
    """Reasons no registered site can realize the request; empty if one can or none is registered."""
    reasons: list[str] = []
    for realizer in realizers.sited():
        found = realizer.refusals(cluster)
        if found is None:
            continue  # no site of this kind: it neither offers nor refuses
        if not found:
            return []
        reasons += found
    return reasons
