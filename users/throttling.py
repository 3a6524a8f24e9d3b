"""Rate limits for the API (per user, per address) and for failed bearer tokens and agent joins.

Rates come from settings at call time (ENCLAVE_*_RATE), so a site can change them without code.
Counters live in the shared cache (Redis), so every web process counts together.
"""

from django.conf import settings
from django.core.cache import cache
from rest_framework import exceptions, throttling

from audit.middleware import client_ip


class _SettingsRate:
    """Read the rate for `scope` from settings.API_RATES when asked, not at import."""

    def get_rate(self):
        return settings.API_RATES.get(self.scope)

    def get_ident(self, request):
        return client_ip(request) or "unknown"


class UserRateThrottle(_SettingsRate, throttling.UserRateThrottle):
    scope = "user"


class AnonRateThrottle(_SettingsRate, throttling.AnonRateThrottle):
    scope = "anon"


class JoinRateThrottle(_SettingsRate, throttling.SimpleRateThrottle):
    """Agent joins per source address: join tokens are one-time, guessing them is throttled."""

    scope = "join"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class BearerFailures(_SettingsRate, throttling.SimpleRateThrottle):
    """Failed bearer tokens per source address: beyond the rate, every token is refused with 429."""

    scope = "bearer_failure"

    def __init__(self, request):
        super().__init__()
        self.key = self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def check(self) -> None:
        """Refuse the request (429) while this address is over its failure budget."""
        self.history = cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        if len(self.history) >= self.num_requests:
            raise exceptions.Throttled(self.wait())

    def failed(self) -> None:
        """Count one failure."""
        self.history.insert(0, self.now)
        cache.set(self.key, self.history, self.duration)
