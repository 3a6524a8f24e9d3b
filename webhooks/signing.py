"""Standard Webhooks signing: secrets (whsec_ + base64 of 32 random bytes) and the three headers."""

import base64
import datetime
import secrets as random

from standardwebhooks.webhooks import Webhook as Signer

PREFIX = "whsec_"


def new_secret() -> str:
    """A fresh signing secret in the Standard Webhooks format."""
    return PREFIX + base64.b64encode(random.token_bytes(32)).decode()


def headers(message_id: str, body: str, secrets: list[str], at: datetime.datetime) -> dict[str, str]:
    """webhook-id, webhook-timestamp and webhook-signature (one v1 signature per active secret)."""
    signatures = " ".join(Signer(secret).sign(message_id, at, body) for secret in secrets)
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signatures,
        "content-type": "application/json",
        "user-agent": "Enclave-Webhooks/1",
    }
