"""/healthz: is the database reachable, Redis answering, and a worker consuming tasks?"""

import time

import redis
from django.db import connection
from django.http import JsonResponse

from core import redisconn
from portal.metrics import is_monitoring
from portal.tasks import HEARTBEAT_KEY

WORKER_STALE_SECONDS = 120


def _database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True, "ok"
    except Exception as exc:  # noqa: BLE001 - any failure means unhealthy; report it
        return False, str(exc)[:200]


def _redis_and_worker() -> tuple[tuple[bool, str], tuple[bool, str]]:
    try:
        client = redisconn.client(socket_timeout=1)
        client.ping()
        beat = client.get(HEARTBEAT_KEY)
    except redis.RedisError as exc:
        return (False, str(exc)[:200]), (False, "unknown: Redis is down")
    if beat is None:
        return (True, "ok"), (False, "no worker heartbeat yet")
    age = time.time() - float(beat)
    worker = (age < WORKER_STALE_SECONDS, f"last heartbeat {age:.0f}s ago")
    return (True, "ok"), worker


def healthz(request):
    """Report health as JSON, 503 when anything is down; details only to admins and the metrics scraper."""
    db = _database()
    rds, worker = _redis_and_worker()
    checks = {
        "database": {"ok": db[0], "detail": db[1]},
        "redis": {"ok": rds[0], "detail": rds[1]},
        "worker": {"ok": worker[0], "detail": worker[1]},
    }
    healthy = all(check["ok"] for check in checks.values())
    body = {"status": "ok" if healthy else "degraded"}
    if is_monitoring(request):
        body["checks"] = checks  # error text can name hosts, ports and users: not for anonymous callers
    return JsonResponse(body, status=200 if healthy else 503)
