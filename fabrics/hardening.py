"""Does the subnet manager protect the fabric against a tenant with root on a bare-metal node? From the report's `sm`.

A root user on a node can send subnet management packets from its HCA: without an M_Key (and a protection level
that hides and guards it) it rewrites any port's P_Key table; without an SM_Key, or with another subnet manager
allowed to take over, it runs its own SM. Partitions mean nothing then.
"""

from dataclasses import dataclass

WARNING = "Partitions mean nothing if a tenant can run its own subnet manager or rewrite ports' P_Key tables."


@dataclass(frozen=True)
class Fact:
    label: str
    ok: bool | None  # None: not reported yet
    detail: str


def facts(sm: dict) -> list[Fact]:
    """Each hardening fact the fabric agent reported, judged."""
    if not sm:
        return [Fact("Subnet manager", None, "The fabric agent has not reported yet.")]
    protect = sm.get("m_key_protect", 0)
    foreign = sm.get("foreign_sms") or []
    return [
        Fact("M_Key", bool(sm.get("m_key")) and protect >= 1,
             f"set, protection level {protect}" if sm.get("m_key") else "not set: any node's root can reprogram ports"),
        Fact("SM_Key", bool(sm.get("sm_key")), "set" if sm.get("sm_key") else "not set: another SM can take over"),
        Fact("Other subnet managers", not foreign,
             f"{len(foreign)} seen on ports Enclave does not own: {', '.join(foreign[:4])}" if foreign else "none"),
    ]  # fmt: skip


def protected(sm: dict) -> bool | None:
    """True when every fact holds; None before the first report."""
    found = facts(sm)
    if any(f.ok is None for f in found):
        return None
    return all(f.ok for f in found)
