"""A webhook URL is a credential: Slack-style endpoints carry their secret in the path, others in the query.

Everything beyond scheme://host[:port] is treated as secret: the URL is stored encrypted and shown, to
owners too, in the API, on the pages and in the audit log only as scheme://host/… with a short keyed
fingerprint, so an owner can tell two endpoints apart and see that a change took, and nobody can read or
brute-force the path back from it (the fingerprint is an HMAC under the site's secret key).
"""

from urllib.parse import urlsplit

from django.utils.crypto import salted_hmac

FINGERPRINT_CHARS = 10


def redacted(url: str) -> str:
    """scheme://host[:port]/ when there is nothing more, else scheme://host[:port]/…"""
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    more = parts.path not in ("", "/") or parts.query or url.endswith("?")
    return f"{parts.scheme}://{host}/{'…' if more else ''}"


def fingerprint(url: str) -> str:
    """A short keyed digest of the whole URL (the same URL, the same fingerprint, on this site only)."""
    return salted_hmac("enclave.webhooks.url-fingerprint", url, algorithm="sha256").hexdigest()[:FINGERPRINT_CHARS]


def shown(url_redacted: str, url_fingerprint: str) -> str:
    """The one form anyone but the sender ever sees: scheme://host/… (fingerprint)."""
    return f"{url_redacted} ({url_fingerprint})" if url_fingerprint else url_redacted
