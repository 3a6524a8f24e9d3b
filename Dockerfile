# The portal image (web, worker, beat, migrate): Debian's Python 3.11, only the run-time packages
# (requirements-prod.txt and ./agent; no pytest, playwright or ruff), static files collected at
# build, running as an unprivileged user. BASE is any Debian 12 image: deploy/base-image.sh builds
# one from Debian packages alone (mmdebstrap) where no image registry can be reached.
ARG BASE=debian:bookworm-slim
FROM ${BASE}
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 ENCLAVE_DATA_DIR=/data PATH=/opt/venv/bin:$PATH \
    PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_CERT=/etc/ssl/certs/ca-certificates.crt
# A site's own CAs (e.g. of a TLS-inspecting proxy), trusted by apt, pip and the portal alike.
COPY deploy/ca-certificates/ /usr/local/share/ca-certificates/
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 python3-venv ca-certificates tzdata \
    && rm -rf /var/lib/apt/lists/* /usr/local/share/ca-certificates/README /usr/local/share/ca-certificates/.gitignore \
    && update-ca-certificates >/dev/null \
    && python3 -m venv /opt/venv \
    && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin enclave
WORKDIR /app
COPY requirements-prod.txt ./
# python-ldap (django-auth-ldap) has no wheels: built against Debian's OpenLDAP, the build tools removed after.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends gcc libc6-dev python3-dev \
       libldap-dev libsasl2-dev libldap-2.5-0 libsasl2-2 \
    && pip install -r requirements-prod.txt \
    && DEBIAN_FRONTEND=noninteractive apt-get purge -y --auto-remove gcc libc6-dev python3-dev libldap-dev libsasl2-dev \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libldap-2.5-0 libsasl2-2 \
    && rm -rf /var/lib/apt/lists/*
# The agent package: the server imports its wire format and grammar (one copy of each contract).
COPY agent ./agent
RUN pip install ./agent && rm -rf ./agent/build ./agent/*.egg-info
COPY . .
# Throwaway values: collectstatic needs settings to load, never these keys.
RUN ENCLAVE_PRODUCTION=1 ENCLAVE_SECRET_KEY=build-only ENCLAVE_FIELD_ENCRYPTION_KEYS=build-only \
    python manage.py collectstatic --noinput -v0 \
    && python -m compileall -q /app \
    && mkdir -p /data && chown enclave:enclave /data
USER enclave
EXPOSE 8000
# gthread: a thread per parked node long-poll (sizing: portal/gunicorn_conf.py).
CMD ["gunicorn", "-c", "portal/gunicorn_conf.py", "portal.wsgi:application"]
