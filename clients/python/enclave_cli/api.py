"""Calls through the generated client: every failure becomes one CliError line, never a traceback. httpx and the
client are imported when the first connection is made, not when the command line starts (`--help` needs neither)."""

import json
import ssl
from http import HTTPStatus

from enclave_cli.config import Settings
from enclave_cli.errors import CliError
from enclave_cli.generated import defer_models_init

PAGE = 1000  # the API's largest page (core.rest.Pagination.max_limit)


def _tls(ca_bundle: str | None) -> ssl.SSLContext | bool:
    """Verification is always on; a CA bundle only adds the site's own authority."""
    if not ca_bundle:
        return True
    try:
        return ssl.create_default_context(cafile=ca_bundle)
    except (OSError, ssl.SSLError) as exc:
        raise CliError(f"cannot use CA bundle {ca_bundle}: {exc}") from None


def _fields(body: dict) -> str:
    """A 400's per-field messages on one line: `name: message; other: message`."""
    parts = []
    for key, value in body.items():
        if key == "code":
            continue
        text = " ".join(str(v) for v in value) if isinstance(value, list) else str(value)
        parts.append(text if key in ("detail", "non_field_errors") else f"{key}: {text}")
    return "; ".join(parts)


def describe(status: int, content: bytes, what: str) -> str:
    """One line for a refused request, from the API's JSON error body."""
    try:
        body = json.loads(content)
    except ValueError:
        body = None
    detail = _fields(body) if isinstance(body, dict) else ""
    phrase = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "error"
    if status == 401:
        return f"the server refused the token: {detail or phrase} (HTTP 401); create one and run: enclave login"
    if status == 404:
        return f"{what or 'that object'} was not found (HTTP 404)"
    if status == 400:
        return f"invalid request: {detail or phrase} (HTTP 400)"
    if status >= 500:
        return f"the server failed (HTTP {status} {phrase}); try again or ask the site's admins"
    return f"{detail or phrase} (HTTP {status})"


class Api:
    """A connection to one site: the generated client plus error handling and paging."""

    def __init__(self, settings: Settings, timeout: float = 30.0):
        if not settings.token:
            raise CliError(f"no token for {settings.url}: set ENCLAVE_TOKEN or run: enclave login")
        defer_models_init()  # before any endpoint module: the workflows import them once they have an Api
        import httpx
        from enclave_client import AuthenticatedClient

        self.settings = settings
        self.client = AuthenticatedClient(
            base_url=settings.url,
            token=settings.token,
            verify_ssl=_tls(settings.ca_bundle),
            timeout=httpx.Timeout(timeout),
            headers={"User-Agent": "enclave-cli/0.1"},
        )

    def _failed(self, exc: Exception) -> CliError:
        """One line for a transport failure."""
        import httpx

        url = self.settings.url
        text = str(exc) or type(exc).__name__
        if "CERTIFICATE_VERIFY_FAILED" in text or isinstance(exc, ssl.SSLError):
            return CliError(f"TLS verification of {url} failed ({text}); give the site's CA with --ca-bundle")
        if isinstance(exc, httpx.TimeoutException):
            return CliError(f"no answer from {url} in time ({type(exc).__name__})")
        if isinstance(exc, httpx.ConnectError):
            reason = text.split("] ", 1)[-1]
            return CliError(f"cannot reach {url}: {reason} (is the server up and the URL right?)")
        return CliError(f"request to {url} failed: {text}")

    def call(self, endpoint, *args, what: str = "", **kwargs):
        """Run a generated endpoint's sync_detailed; the parsed answer, or a CliError."""
        import httpx

        try:
            response = endpoint.sync_detailed(*args, client=self.client, **kwargs)
        except httpx.HTTPError as exc:
            raise self._failed(exc) from None
        except (ValueError, KeyError, TypeError):
            raise CliError(f"{self.settings.url} did not answer as an Enclave API does; check the URL") from None
        status = int(response.status_code)
        if status >= 300:
            raise CliError(describe(status, response.content, what))
        return response.parsed

    def all(self, endpoint, **filters) -> list:
        """Every row of a list endpoint, page by page."""
        rows, offset = [], 0
        while True:
            page = self.call(endpoint, limit=PAGE, offset=offset, **filters)
            rows.extend(page.results)
            offset += len(page.results)
            if not page.next_ or not page.results:
                return rows
