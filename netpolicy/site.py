"""The site's shared services (DNS, NTP, NFS): validated, audited edits by site admins only."""

import ipaddress
import re

from django.db import transaction

from audit.services import record, snapshot
from core.errors import Forbidden, InvalidRequest
from netpolicy import propagation
from netpolicy.models import SiteSettings
from tenants.access import is_site_admin

MAX_SERVERS = 16
MAX_COOLDOWN_MINUTES = 7 * 24 * 60
DOMAIN_RE = re.compile(r"(?=.{1,253}\Z)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*")
FIELDS = ("dns_servers", "dns_domain", "ntp_servers", "nfs_servers", "address_cooldown_minutes")


def _addresses(field: str, values, networks: bool = False) -> list[str]:
    """Strict addresses (or, for NFS, strict networks): the text reaches guests and firewalls."""
    if not isinstance(values, list) or len(values) > MAX_SERVERS:
        raise InvalidRequest(f"Give a list of at most {MAX_SERVERS} addresses.", field)
    out = []
    for value in values:
        try:
            parsed = ipaddress.ip_network(value, strict=True) if networks else ipaddress.ip_address(value)
        except (TypeError, ValueError):
            what = "an address or network" if networks else "an address"
            raise InvalidRequest(f"{value!r} is not {what}.", field) from None
        if parsed.is_unspecified or parsed.is_multicast or parsed.is_loopback:
            raise InvalidRequest(f"{value} cannot be a server address.", field)
        if networks and parsed.prefixlen == 0:
            raise InvalidRequest("Every address is not a set of servers: name their networks.", field)
        out.append(str(parsed.network_address) if networks and parsed.num_addresses == 1 else str(parsed))
    if len(set(out)) != len(out):
        raise InvalidRequest("Each address may appear once.", field)
    return out


def clean(data: dict) -> dict:
    """Validate a change of the site settings; unknown fields are refused."""
    unknown = set(data) - set(FIELDS)
    if unknown:
        raise InvalidRequest(f"Unknown fields: {', '.join(sorted(unknown))}")
    cleaned = {}
    for field in ("dns_servers", "ntp_servers"):
        if field in data:
            cleaned[field] = _addresses(field, data[field])
    if "nfs_servers" in data:
        cleaned["nfs_servers"] = _addresses("nfs_servers", data["nfs_servers"], networks=True)
    if "dns_domain" in data:
        domain = str(data["dns_domain"] or "").strip().lower().rstrip(".")
        if domain and not DOMAIN_RE.fullmatch(domain):
            raise InvalidRequest(f"{data['dns_domain']!r} is not a DNS domain.", "dns_domain")
        cleaned["dns_domain"] = domain
    if "address_cooldown_minutes" in data:
        minutes = data["address_cooldown_minutes"]
        if not isinstance(minutes, int) or isinstance(minutes, bool) or not 0 <= minutes <= MAX_COOLDOWN_MINUTES:
            raise InvalidRequest(f"Give whole minutes from 0 to {MAX_COOLDOWN_MINUTES}.", "address_cooldown_minutes")
        cleaned["address_cooldown_minutes"] = minutes
    return cleaned


def update_settings(user, data: dict) -> SiteSettings:
    """Change the site's DNS, NTP or NFS servers (site admins); the derived groups follow."""
    if not is_site_admin(user):
        raise Forbidden("Only site admins change the site settings.")
    cleaned = clean(data)
    with transaction.atomic():
        settings, _ = SiteSettings.objects.select_for_update().get_or_create(pk=1)
        before = snapshot(settings)
        for field, value in cleaned.items():
            setattr(settings, field, value)
        settings.save()
        record("site_settings.update", settings, before=before, after=snapshot(settings))
        propagation.site_changed()  # every tenant reaches the site's NFS and DNS groups
    return settings
