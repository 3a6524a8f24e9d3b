"""portal/gunicorn_conf.py plus one line per request: start (epoch s), seconds in the worker, method, path, status.

For site_scale.py --timing-log: the server's side of each timed request, to set against the client's."""

import os
import threading
import time

from portal.gunicorn_conf import *  # noqa: F403 - the production configuration, unchanged

_log = os.open(os.environ["SITE_SCALE_TIMING_LOG"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
_started = threading.local()


def pre_request(worker, req):
    _started.at = time.time()


def post_request(worker, req, environ, resp):
    at = getattr(_started, "at", time.time())
    os.write(_log, f"{at:.4f} {time.time() - at:.4f} {req.method} {req.path} {resp.status_code}\n".encode())
