"""Builders for the pure compiler tests: sample tenants, sites and network namespaces."""

import os
import subprocess
import uuid

from netpolicy.compiler import defaults
from netpolicy.compiler.model import (
    Action,
    Category,
    Direction,
    Group,
    Policy,
    Protocol,
    Rule,
    Scope,
    Service,
    Site,
)

NFS_IP = "10.255.0.10"
DNS_IP = "10.255.0.53"
WEB = Service("web", Protocol.TCP, ("8080", "8443-8444"))


def make_tenant(name, index, extra=()):
    """A tenant with login/manager/worker roles in 10.<index>.0.0/24 and fd00:<index>::/64."""
    nfs, dns = defaults.site_groups([f"{NFS_IP}/32", "fd00:ff::10/128"], [f"{DNS_IP}/32"])
    roles = {
        defaults.ROLE_LOGIN: [f"10.{index}.0.10/32", f"fd00:{index:x}::10/128"],
        defaults.ROLE_MANAGER: [f"10.{index}.0.11/32"],
        defaults.ROLE_WORKER: [f"10.{index}.0.32/27"],
    }
    cidrs = [f"10.{index}.0.0/24", f"fd00:{index:x}::/64"]
    return defaults.default_tenant(name, f"vrf{1000 + index}", cidrs, roles, nfs, dns, extra)


def make_site(tenants, extra_site_policies=()):
    """Site with the default site policies and the seeded service catalogue."""
    nfs, dns = defaults.site_groups([f"{NFS_IP}/32", "fd00:ff::10/128"], [f"{DNS_IP}/32"])
    return Site(
        defaults.site_policies() + tuple(extra_site_policies),
        tuple(tenants),
        defaults.SEEDED_SERVICES + (WEB,),
        (nfs, dns),
    )


def custom_policy(tenant, index, rules=None):
    """A tenant policy in the environment category exercising most rule features."""
    worker = Group("worker", Scope.TENANT, tenant, (f"10.{index}.0.32/27",), ("worker",))
    manager = Group("manager", Scope.TENANT, tenant, (f"10.{index}.0.11/32",), ("manager",))
    partner = Group("partner", Scope.TENANT, tenant, ("198.51.100.0/24", "2001:db8::/48"))
    rules = rules or (
        Rule("slurm", 10, Action.ALLOW, (worker,), (manager,), (defaults.SLURM,)),
        Rule("partner_web", 20, Action.ALLOW, (partner,), (worker,), (WEB,), Direction.IN, logged=True),
        Rule("block_udp", 30, Action.DROP, (partner,), (), (defaults.DNS_UDP,), Direction.IN),
        Rule("disabled", 40, Action.REJECT, enabled=False),
    )
    return Policy(f"{tenant}_custom", Scope.TENANT, Category.ENVIRONMENT, 50, rules, tenant)


class Netns:
    """A uniquely named network namespace, deleted on close."""

    def __init__(self, prefix="np"):
        self.name = f"{prefix}_{os.getpid()}_{uuid.uuid4().hex[:6]}"
        subprocess.run(["ip", "netns", "add", self.name], check=True)

    def run(self, *argv, check=True, **kwargs):
        """Run a command inside the namespace."""
        return subprocess.run(
            ["ip", "netns", "exec", self.name, *argv], check=check, capture_output=True, text=True, **kwargs
        )

    def popen(self, *argv):
        """Start a long-running command inside the namespace."""
        return subprocess.Popen(
            ["ip", "netns", "exec", self.name, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )

    def nft(self, text, tmp_path, check_only=False):
        """Feed a ruleset to the real nft binary (check mode if asked); returns the result."""
        path = tmp_path / f"ruleset_{uuid.uuid4().hex[:6]}.nft"
        path.write_text(text)
        argv = ["nft", "-c", "-f", str(path)] if check_only else ["nft", "-f", str(path)]
        return self.run(*argv, check=False)

    def close(self):
        subprocess.run(["ip", "netns", "del", self.name], check=False)
