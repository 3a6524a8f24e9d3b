"""portal/gunicorn_conf.py plus a line per request (start in epoch s, seconds in the worker, method, path,
status) and per garbage collection over 5 ms (start, seconds, "GC", generation, objects collected).

For site_scale.py --timing-log: the server's side of each timed request, to set against the client's."""

import gc
import os
import threading
import time

from portal import gunicorn_conf
from portal.gunicorn_conf import *  # noqa: F403 - the production configuration, unchanged

_log = os.open(os.environ["SITE_SCALE_TIMING_LOG"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
_started = threading.local()
_collecting = [0.0]


def pre_request(worker, req):
    _started.at = time.time()


def post_request(worker, req, environ, resp):
    at = getattr(_started, "at", time.time())
    os.write(_log, f"{at:.4f} {time.time() - at:.4f} {req.method} {req.path} {resp.status_code}\n".encode())


def _collection(phase, info):
    if phase == "start":
        _collecting[0] = time.time()
    elif (took := time.time() - _collecting[0]) > 0.005:
        os.write(_log, f"{_collecting[0]:.4f} {took:.4f} GC {info['generation']} {info['collected']}\n".encode())


def post_worker_init(worker):
    gunicorn_conf.post_worker_init(worker)
    gc.callbacks.append(_collection)
