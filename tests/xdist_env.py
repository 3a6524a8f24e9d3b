"""Loaded with `-p tests.xdist_env` before Django's settings: each pytest-xdist process its own Redis database.

PostgreSQL is separated by pytest-django (test_<name>_gw0, _gw1...); Redis keys, the Celery broker
and the cache are separated here, before `portal.settings` reads ENCLAVE_REDIS_URL.
"""

import os
import re

_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
_url = os.environ.get("ENCLAVE_REDIS_URL", "")
if _worker.startswith("gw") and re.search(r"/\d+$", _url):
    base = int(_url.rsplit("/", 1)[1])
    os.environ["ENCLAVE_REDIS_URL"] = f"{_url.rsplit('/', 1)[0]}/{base - int(_worker[2:])}"
