"""Django settings for Enclave; every tunable comes from an ENCLAVE_* environment variable."""

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from core import redisconn
from core.env import env_bool, env_int, env_list, env_str, multi_host
from core.proxies import parse_networks
from core.secrets import load_secret_key, refuse_placeholders

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(env_str("ENCLAVE_DATA_DIR", str(BASE_DIR / ".data")))

DEBUG = env_bool("ENCLAVE_DEBUG", False)
PRODUCTION = env_bool("ENCLAVE_PRODUCTION", False)
# Outside production a missing key is generated once into DATA_DIR (never committed).
SECRET_KEY = load_secret_key(env_str("ENCLAVE_SECRET_KEY"), DATA_DIR, allow_generate=not PRODUCTION)
ALLOWED_HOSTS = env_list("ENCLAVE_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("ENCLAVE_CSRF_TRUSTED_ORIGINS")
# Keys for credentials at rest (vCenter passwords), newest first (core/crypto.py). Production must set
# them; elsewhere one is derived from SECRET_KEY. ENCLAVE_FIELD_ENCRYPTION_KEY is the one-key spelling.
FIELD_ENCRYPTION_KEYS = env_list("ENCLAVE_FIELD_ENCRYPTION_KEYS") or env_list("ENCLAVE_FIELD_ENCRYPTION_KEY")
if PRODUCTION and not FIELD_ENCRYPTION_KEYS:
    raise ImproperlyConfigured(
        "ENCLAVE_FIELD_ENCRYPTION_KEYS is not set: production never derives the field-encryption key from "
        "ENCLAVE_SECRET_KEY (generate one with: python -c 'import secrets; print(secrets.token_urlsafe(32))')"
    )
# vCenter password_file and ca_bundle may only name files under this directory.
SECRETS_DIR = Path(env_str("ENCLAVE_SECRETS_DIR", "/run/secrets" if PRODUCTION else str(DATA_DIR / "secrets")))

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "django_htmx",
    "portal",
    "audit",
    "users",
    "tenants",
    "netpolicy",
    "vsphere",
    "agents",
    "fabrics",
    "catalog",
    "notices",
    "identity",
    "nsx",
    "webhooks",
    "frontend",
]

MIDDLEWARE = [
    "portal.metrics.MetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tenants.middleware.MembershipsMiddleware",
    "audit.middleware.RequestContextMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
    "identity.oidc.SessionRefreshWhenEnabled",  # a no-op but for sessions signed in with the OpenID provider
]

# Login forms (/login/, /admin/login/): django-axes locks a (username, address) pair after
# ENCLAVE_LOGIN_FAILURE_LIMIT failures for ENCLAVE_LOGIN_COOLOFF_MINUTES. Locking the pair, not the
# username alone, means an attacker elsewhere cannot lock a site admin out; the cool-off ends it.
# Sign-in: the lockout check, the site's directory when configured (identity.ldap), local passwords
# (identity.local: ENCLAVE_LOCAL_LOGIN=0 keeps them for the break-glass accounts only).
LDAP_URI = env_str("ENCLAVE_LDAP_URI")
LOCAL_LOGIN = env_bool("ENCLAVE_LOCAL_LOGIN", True)
BREAK_GLASS_USERS = env_list("ENCLAVE_BREAK_GLASS_USERS", "admin")
OIDC_CLIENT_ID = env_str("ENCLAVE_OIDC_CLIENT_ID")
OIDC_ENABLED = False  # portal.oidc_settings turns it on with the provider's settings
AUTHENTICATION_BACKENDS = [
    "portal.auth.LoginLockoutBackend",
    *(["identity.ldap.DirectoryLDAPBackend"] if LDAP_URI else []),
    *(["identity.oidc.DirectoryOIDCBackend"] if OIDC_CLIENT_ID else []),
    "identity.local.LocalBackend",
]
# Reverse proxies whose X-Forwarded-For is believed (CIDRs): the client is the right-most address they did not
# write (core.proxies). Empty: REMOTE_ADDR is the client.
TRUSTED_PROXIES = parse_networks(env_list("ENCLAVE_TRUSTED_PROXIES"))
AXES_FAILURE_LIMIT = env_int("ENCLAVE_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_int("ENCLAVE_LOGIN_COOLOFF_MINUTES", 15) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A refused try (locked or paced) neither counts nor extends the lockout: the cool-off ends when it said.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Across every address: beyond this many failures of one username per cool-off window, that username gets
# one try per LOGIN_USER_SLOWDOWN_SECONDS (portal.auth), except from addresses its user signed in from.
LOGIN_USER_FAILURE_LIMIT = env_int("ENCLAVE_LOGIN_USER_FAILURE_LIMIT", 30)
LOGIN_USER_SLOWDOWN_SECONDS = env_int("ENCLAVE_LOGIN_USER_SLOWDOWN_SECONDS", 10)
AXES_CLIENT_IP_CALLABLE = "audit.middleware.client_ip"
AXES_LOCKOUT_CALLABLE = "portal.auth.lockout_response"
AXES_VERBOSE = False

# API tokens: lifetime when none is asked, and the most any token may live.
TOKEN_DEFAULT_DAYS = env_int("ENCLAVE_TOKEN_DEFAULT_DAYS", 30)
TOKEN_MAX_DAYS = env_int("ENCLAVE_TOKEN_MAX_DAYS", 365)
# Request rates (DRF syntax, N/second|minute|hour|day) per user, per address, per node agent (its
# long-polls, reports and rotations: a few a minute, bursts when intent changes fast), for agent
# joins and for failed bearer tokens per address.
API_RATES = {
    "user": env_str("ENCLAVE_API_RATE_USER", "1200/minute"),
    "anon": env_str("ENCLAVE_API_RATE_ANON", "300/minute"),
    "node": env_str("ENCLAVE_NODE_RATE", "600/minute"),
    "fabric": env_str("ENCLAVE_FABRIC_RATE", "600/minute"),  # per fabric agent (fabrics.api), like a node's
    "join": env_str("ENCLAVE_JOIN_RATE", "20/minute"),
    "bearer_failure": env_str("ENCLAVE_BEARER_FAILURE_RATE", "20/minute"),
}
# /metrics: site admins, or Prometheus with `Authorization: Bearer $ENCLAVE_METRICS_TOKEN`.
METRICS_TOKEN = env_str("ENCLAVE_METRICS_TOKEN")
# /api/schema/ and /api/docs/: "staff" (default), "authenticated" or "public".
API_SCHEMA_ACCESS = env_str("ENCLAVE_API_SCHEMA_ACCESS", "staff")

ROOT_URLCONF = "portal.urls"
WSGI_APPLICATION = "portal.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "frontend.context.navigation",
            ],
        },
    },
]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": env_str("ENCLAVE_DB_NAME", "enclave"),
        "USER": env_str("ENCLAVE_DB_USER", "enclave"),
        "PASSWORD": env_str("ENCLAVE_DB_PASSWORD"),
        "HOST": env_str("ENCLAVE_DB_HOST", "127.0.0.1"),
        "PORT": env_int("ENCLAVE_DB_PORT", 54329),
        "CONN_MAX_AGE": env_int("ENCLAVE_DB_CONN_MAX_AGE", 0),
        # A kept or pooled connection is checked (one round trip) before it is reused: after a failover
        # each one points at the dead leader and would otherwise fail the request that got it.
        "CONN_HEALTH_CHECKS": True,
        "TEST": {"NAME": env_str("ENCLAVE_TEST_DB_NAME", "test_enclave")},
    }
}
# A connection pool per web process (gunicorn threads borrow and return connections): thousands
# of node long-polls in hundreds of threads must not mean hundreds of PostgreSQL connections.
if env_int("ENCLAVE_DB_POOL_SIZE", 0):
    DATABASES["default"]["OPTIONS"] = {"pool": {"min_size": 2, "max_size": env_int("ENCLAVE_DB_POOL_SIZE", 0),
                                                "timeout": env_int("ENCLAVE_DB_POOL_TIMEOUT", 30)}}  # fmt: skip
# PostgreSQL behind Patroni: libpq tries every "host:port" and keeps the one that accepts writes (the
# leader), so web, worker, beat and migrations follow a failover by reconnecting (docs/deployment.md).
DB_HOSTS = env_list("ENCLAVE_DB_HOSTS")
if DB_HOSTS:
    _hosts = multi_host(DB_HOSTS, env_int("ENCLAVE_DB_CONNECT_TIMEOUT", 5))
    DATABASES["default"].update(HOST=_hosts["HOST"], PORT=_hosts["PORT"])
    DATABASES["default"].setdefault("OPTIONS", {}).update(_hosts["OPTIONS"])
# The schema owner: only `manage.py migrate` and `flush` connect as it (portal/dbroles.py). Give its
# password to the migration job alone; web, worker and beat then cannot rewrite the audit log.
DB_OWNER_USER = env_str("ENCLAVE_DB_OWNER_USER")
DB_OWNER_PASSWORD = env_str("ENCLAVE_DB_OWNER_PASSWORD")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("ENCLAVE_REDIS_URL", "redis://127.0.0.1:63799/0")
# Redis Sentinel ("host:port,host:port"): clients ask them for the master named below (core/redisconn.py).
REDIS_SENTINELS = env_list("ENCLAVE_REDIS_SENTINELS")
REDIS_SENTINEL_MASTER = env_str("ENCLAVE_REDIS_SENTINEL_MASTER", "enclave")
# Shared by every process: throttle counters, the audit chain status.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": env_str("ENCLAVE_CACHE_URL", REDIS_URL),
        "KEY_PREFIX": "enclave-cache",
    }
}
if REDIS_SENTINELS:  # the cache's connections ask the Sentinels for the master (follows a failover)
    CACHES["default"]["OPTIONS"] = {"pool_class": "core.redisconn.SentinelPool"}

# Node agents: credential lifetime and rotation grace, long-poll limits (agents/longpoll.py).
AGENT_CREDENTIAL_DAYS = env_int("ENCLAVE_NODE_CREDENTIAL_DAYS", 30)
AGENT_CREDENTIAL_GRACE_SECONDS = env_int("ENCLAVE_NODE_CREDENTIAL_GRACE_SECONDS", 3600)
AGENT_LONGPOLL_MAX = env_int("ENCLAVE_AGENT_LONGPOLL_MAX", 64)
AGENT_LONGPOLL_RETRY_AFTER = env_int("ENCLAVE_AGENT_LONGPOLL_RETRY_AFTER", 15)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "frontend:home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = env_str("ENCLAVE_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
if PRODUCTION:
    # gunicorn serves the files collected at image build itself (hashed names, compressed, cached
    # for a year), so the stack needs no separate file server; runserver serves them in development.
    MIDDLEWARE.insert(MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
                      "whitenoise.middleware.WhiteNoiseMiddleware")  # fmt: skip
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }

# Bodies beyond this are refused with 400 before any parsing: requests are small JSON documents.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("ENCLAVE_MAX_BODY_BYTES", 256 * 1024)

EMAIL_BACKEND = env_str("ENCLAVE_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_FILE_PATH = DATA_DIR / "mail"
EMAIL_HOST = env_str("ENCLAVE_EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("ENCLAVE_EMAIL_PORT", 25)
DEFAULT_FROM_EMAIL = env_str("ENCLAVE_FROM_EMAIL", "enclave@localhost")
PORTAL_URL = env_str("ENCLAVE_PORTAL_URL", "http://127.0.0.1:8000")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "users.authentication.BearerTokenAuthentication",
        "identity.oidc.ProviderTokenAuthentication",  # the OpenID provider's access tokens, while OIDC is on
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "core.rest.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "core.filters.FilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "core.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "core.rest.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    "DEFAULT_THROTTLE_CLASSES": ["users.throttling.UserRateThrottle", "users.throttling.AnonRateThrottle"],
    "DEFAULT_PARSER_CLASSES": ["core.parsers.BoundedJSONParser"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Enclave API",
    "DESCRIPTION": "Self-service control plane for multi-tenant HPC and ML networking.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "core.openapi.postprocess_variants"],
    "ENUM_NAME_OVERRIDES": {
        "SiteKindEnum": "tenants.choices.SiteKind",
        "ApprovableSiteKindEnum": "tenants.choices.APPROVABLE_SITE_KINDS",
        "ExtensionStateEnum": "tenants.choices.ExtensionState",
        "ClusterStateEnum": "tenants.choices.ClusterState",
        "MembershipSourceEnum": "tenants.choices.MembershipSource",
        "PFSourceEnum": "vsphere.choices.PFSource",
        "NodeStatusEnum": "agents.choices.NodeStatus",
        "SegmentKindEnum": "netpolicy.choices.SegmentKind",  # a segment and its detail view share it
    },
    # Swagger UI and ReDoc are served from static files: portals often run air-gapped.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

CELERY_BROKER_URL = env_str("ENCLAVE_BROKER_URL", REDIS_URL)
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True  # a killed worker's task is redelivered; reconcilers are idempotent
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = False
# Webhook deliveries wait on tenants' receivers: they have a queue and workers of their own, so a slow
# receiver never holds the workers that reconcile, compile and sweep for every tenant.
WEBHOOK_QUEUE = "webhooks"
CELERY_TASK_ROUTES = {"webhooks.tasks.send_delivery": {"queue": WEBHOOK_QUEUE}}
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env_int("ENCLAVE_TASK_VISIBILITY", 600)}
if REDIS_SENTINELS:  # kombu's Sentinel transport: workers and publishers reconnect to the new master
    CELERY_BROKER_URL = redisconn.broker_url(REDIS_URL, REDIS_SENTINELS)
    CELERY_BROKER_TRANSPORT_OPTIONS["master_name"] = REDIS_SENTINEL_MASTER
# Seconds a queued or running task keeps its objects from the lost-work sweeps (core.leases).
LEASE_SECONDS = env_int("ENCLAVE_LEASE_SECONDS", 60)
# Lease policy: no lease runs longer than LEASE_MAX_DAYS from today without a PI's or admin's
# approval; requesters and owners are warned LEASE_WARNING_DAYS before expiry (each warning once).
LEASE_MAX_DAYS = env_int("ENCLAVE_LEASE_MAX_DAYS", 365)
LEASE_WARNING_DAYS = tuple(
    sorted({int(d) for d in env_str("ENCLAVE_LEASE_WARNING_DAYS", "30,14,7").split(",") if d.strip()}, reverse=True)
)
# With more than this many requests waiting for approval, site admins get one digest every
# NOTICE_DIGEST_SECONDS instead of one e-mail per request (in-app notices still appear).
NOTICE_DIGEST_THRESHOLD = env_int("ENCLAVE_NOTICE_DIGEST_THRESHOLD", 10)
NOTICE_DIGEST_SECONDS = float(env_int("ENCLAVE_NOTICE_DIGEST_SECONDS", 86400))
# In-app notices older than this are deleted once a day, read or not (the audit log keeps the changes).
NOTICE_RETENTION_DAYS = env_int("ENCLAVE_NOTICE_RETENTION_DAYS", 180)
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
# Beat runs on every beat host; only the holder of a Redis lease sends the schedule (portal/beat.py).
CELERY_BEAT_SCHEDULER = "portal.beat:LeasedScheduler"
BEAT_LEASE = env_bool("ENCLAVE_BEAT_LEASE", True)
BEAT_LEASE_SECONDS = env_int("ENCLAVE_BEAT_LEASE_SECONDS", 30)  # a dead holder's schedule resumes after this
BEAT_LEASE_KEY = env_str("ENCLAVE_BEAT_LEASE_KEY", "enclave:beat:lease")
# Workers drop a task stamped with an older beat epoch than the lease's current one (portal/beat.py).
BEAT_FENCING = env_bool("ENCLAVE_BEAT_FENCING", True)
CELERY_BEAT_SCHEDULE = {
    "expire-leases": {"task": "tenants.tasks.expire_leases", "schedule": 300.0},
    "lease-warnings": {"task": "tenants.tasks.warn_expiring_leases", "schedule": 3600.0},  # idempotent
    "admin-digest": {"task": "tenants.tasks.send_admin_digest", "schedule": NOTICE_DIGEST_SECONDS},
    "prune-notices": {"task": "notices.tasks.prune_notices", "schedule": 86400.0},
    "worker-heartbeat": {"task": "portal.tasks.heartbeat", "schedule": 30.0},
    "silent-nodes": {"task": "agents.tasks.mark_silent_nodes", "schedule": 30.0},
    "sweep-nodes": {"task": "agents.tasks.sweep", "schedule": 30.0},  # core.leases.SWEEP_INTERVAL
    "sweep-clusters": {"task": "tenants.tasks.sweep_clusters", "schedule": 30.0},
    "refresh-desired-state": {"task": "agents.tasks.refresh_everything", "schedule": 3600.0},
    "vsphere-discovery": {"task": "vsphere.tasks.discover_all", "schedule": 900.0},
    "vsphere-drift": {"task": "vsphere.tasks.check_drift", "schedule": 300.0},
    "audit-chain": {"task": "audit.tasks.verify_chain", "schedule": 3600.0},
}

if LDAP_URI:
    from portal.ldap_settings import ldap_settings

    globals().update(ldap_settings(LDAP_URI))
if OIDC_CLIENT_ID:
    from portal.oidc_settings import oidc_settings

    globals().update(oidc_settings(OIDC_CLIENT_ID))
DIRECTORY_RESYNC_SECONDS = env_int("ENCLAVE_DIRECTORY_RESYNC_SECONDS", 900)
CELERY_BEAT_SCHEDULE["directory-resync"] = {"task": "identity.tasks.resync_directory",
                                            "schedule": float(DIRECTORY_RESYNC_SECONDS)}  # fmt: skip

# NSX: how long a reconcile waits for NSX to realize a change, and how often Enclave looks for drift there.
ENCLAVE_NSX_REALIZE_WAIT = float(env_int("ENCLAVE_NSX_REALIZE_WAIT", 30))
NSX_DRIFT_SECONDS = env_int("ENCLAVE_NSX_DRIFT_SECONDS", 300)
CELERY_BEAT_SCHEDULE["nsx-drift"] = {"task": "nsx.tasks.sweep_drift", "schedule": float(NSX_DRIFT_SECONDS)}
# Parts whose intent moved on while their queued run was lost (core.leases.SWEEP_INTERVAL).
CELERY_BEAT_SCHEDULE["nsx-sweep"] = {"task": "nsx.tasks.sweep_behind", "schedule": 30.0}
# InfiniBand fabrics: desired partitions recompiled from intent (heals a missed hook or wake-up).
CELERY_BEAT_SCHEDULE["fabric-sync"] = {"task": "fabrics.tasks.sync_fabrics", "schedule": 120.0}

# Webhooks: the outbox is read after each audited commit (the wake) and by beat; deliveries retry with
# exponential backoff and full jitter. Private, loopback and link-local targets and plain http are
# refused unless the site allows them (labs and tests); the CA bundle defaults to the system's.
AUDIT_OUTBOX_TASKS = ["webhooks.tasks.dispatch"]
WEBHOOK_ALLOW_PRIVATE_TARGETS = env_bool("ENCLAVE_WEBHOOK_ALLOW_PRIVATE_TARGETS", False)
WEBHOOK_ALLOW_HTTP = env_bool("ENCLAVE_WEBHOOK_ALLOW_HTTP", False)
WEBHOOK_CA_BUNDLE = env_str("ENCLAVE_WEBHOOK_CA_BUNDLE", "")
WEBHOOK_TIMEOUT = float(env_int("ENCLAVE_WEBHOOK_TIMEOUT", 10))
WEBHOOK_MAX_ATTEMPTS = env_int("ENCLAVE_WEBHOOK_MAX_ATTEMPTS", 8)
WEBHOOK_BACKOFF_BASE = float(env_int("ENCLAVE_WEBHOOK_BACKOFF_BASE", 5))
WEBHOOK_BACKOFF_CAP = float(env_int("ENCLAVE_WEBHOOK_BACKOFF_CAP", 3600))
WEBHOOK_SECRET_OVERLAP_HOURS = env_int("ENCLAVE_WEBHOOK_SECRET_OVERLAP_HOURS", 24)
WEBHOOK_MAX_PER_TENANT = env_int("ENCLAVE_WEBHOOK_MAX_PER_TENANT", 20)
WEBHOOK_SWEEP_GRACE = 10  # seconds a new delivery is left to its own queued attempt before the sweep takes it
CELERY_BEAT_SCHEDULE["webhook-outbox"] = {"task": "webhooks.tasks.dispatch", "schedule": 10.0}
CELERY_BEAT_SCHEDULE["webhook-sweep"] = {"task": "webhooks.tasks.sweep", "schedule": 15.0}

SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

if PRODUCTION:
    # Production behind TLS: secure cookies, HSTS and redirects (see manage.py check --deploy).
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("ENCLAVE_SSL_REDIRECT", True)
    # Container and load-balancer health probes speak plain HTTP to the web process itself.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = env_int("ENCLAVE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

if not DEBUG:
    refuse_placeholders({"ENCLAVE_SECRET_KEY": SECRET_KEY, "ENCLAVE_FIELD_ENCRYPTION_KEYS": FIELD_ENCRYPTION_KEYS,
                         "ENCLAVE_METRICS_TOKEN": METRICS_TOKEN,
                         "ENCLAVE_DB_PASSWORD": DATABASES["default"]["PASSWORD"]})  # fmt: skip

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("ENCLAVE_LOG_LEVEL", "INFO")},
}
