# Image for web, worker and beat (docker-compose.yml). Static files are collected at build time.
FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 ENCLAVE_DATA_DIR=/data
WORKDIR /app
COPY requirements.txt .
COPY agent/ agent/
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
RUN ENCLAVE_SECRET_KEY=build-only python manage.py collectstatic --noinput -v0 \
    && useradd --system --home /data enclave && mkdir -p /data && chown enclave /data
USER enclave
EXPOSE 8000
CMD ["gunicorn", "-c", "portal/gunicorn_conf.py", "portal.wsgi:application"]
