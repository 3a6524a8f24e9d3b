"""Prometheus metrics: request counts and latency, queue depth, cluster requests by state."""

import hmac
import time

import redis
from django.conf import settings
from django.db.models import Count
from django.http import HttpResponse, JsonResponse
from prometheus_client import generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

from core import redisconn
from core.metrics import LATENCY, REGISTRY, REQUESTS
from portal import beat
from tenants.models import VirtualCluster


class MetricsMiddleware:
    """Count and time every request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        start = time.perf_counter()
        response = self.get_response(request)
        LATENCY.labels(request.method).observe(time.perf_counter() - start)
        REQUESTS.labels(request.method, str(response.status_code)).inc()
        return response


class StateCollector:
    """Read gauges at scrape time, so they are always current."""

    def describe(self):
        """Describe nothing up front: describing must not query the database at import."""
        return []

    def collect(self):
        clusters = GaugeMetricFamily("enclave_clusters", "Cluster requests by state", labels=["state"])
        for row in VirtualCluster.objects.values("state").annotate(n=Count("id")):
            clusters.add_metric([row["state"]], row["n"])
        yield clusters
        depth = GaugeMetricFamily("enclave_queue_depth", "Celery messages waiting in Redis")
        try:
            url = settings.REDIS_URL if settings.REDIS_SENTINELS else settings.CELERY_BROKER_URL  # no sentinel:// here
            depth.add_metric([], redisconn.client(url).llen("celery"))
        except redis.RedisError:
            depth.add_metric([], float("nan"))
        yield depth
        yield self._fenced()

    def _fenced(self) -> CounterMetricFamily:
        """Tasks workers dropped because a later beat holds the schedule (counted in Redis: any worker)."""
        fenced = CounterMetricFamily("enclave_beat_fenced_tasks", "Tasks of a superseded beat epoch dropped unrun")
        try:
            fenced.add_metric([], float(redisconn.client().get(beat.fenced_key()) or 0))
        except redis.RedisError:
            fenced.add_metric([], float("nan"))
        return fenced


REGISTRY.register(StateCollector())


def is_monitoring(request) -> bool:
    """A site admin's session, or Prometheus presenting ENCLAVE_METRICS_TOKEN as a bearer token."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.is_staff:
        return True
    expected = settings.METRICS_TOKEN
    supplied = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    return bool(expected) and hmac.compare_digest(supplied.encode(), expected.encode())


def metrics_view(request):
    """Serve the Prometheus text exposition to site admins and the configured scraper only."""
    if not is_monitoring(request):
        response = JsonResponse({"detail": "Authentication credentials were not provided."}, status=401)
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(generate_latest(REGISTRY), content_type="text/plain; version=0.0.4")
