from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Optional, Union

from .errors import NkraError

SIGNATURE_HEADER = "X-Service-Signature"
EVENT_HEADER = "X-Service-Event"

Body = Union[bytes, bytearray, memoryview, str]


def _bytes(raw_body: Body) -> bytes:
    return raw_body.encode("utf-8") if isinstance(raw_body, str) else bytes(raw_body)


def sign_webhook_body(raw_body: Body, secret: str) -> str:
    """The X-Service-Signature of a body: lowercase hex HMAC-SHA256 keyed with the signing secret."""
    return hmac.new(secret.encode("utf-8"), _bytes(raw_body), hashlib.sha256).hexdigest()


def verify_webhook_signature(raw_body: Body, signature: Optional[str], secret: str) -> bool:
    """True when ``signature`` matches the raw body (compared in constant time with hmac.compare_digest).

    Pass the body exactly as received (bytes), never re-serialized JSON.
    """
    if not secret or not isinstance(signature, str):
        return False
    expected = sign_webhook_body(raw_body, secret)
    return hmac.compare_digest(expected.encode("ascii"), signature.strip().lower().encode("ascii", "replace"))


@dataclass
class WebhookEvent:
    """A verified webhook delivery."""
    kind: str
    id: Optional[str]
    occurred_at: Optional[str]
    data: Dict[str, Any]
    payload: Dict[str, Any] = field(repr=False)


def parse_webhook(raw_body: Body, headers: Mapping[str, str], secret: str) -> WebhookEvent:
    """Verifies X-Service-Signature, then parses the event.

    Raises NkraError INVALID_SIGNATURE (status 401) on a bad signature and VALIDATION_ERROR when the
    body is not a JSON object. Header names are matched case-insensitively.
    """
    lowered = {k.lower(): v for k, v in headers.items()}
    if not verify_webhook_signature(raw_body, lowered.get(SIGNATURE_HEADER.lower()), secret):
        raise NkraError("INVALID_SIGNATURE", f"The {SIGNATURE_HEADER} header does not match the body", status=401)
    try:
        payload = json.loads(_bytes(raw_body).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        payload = None
    if not isinstance(payload, dict):
        raise NkraError("VALIDATION_ERROR", "The webhook body is not a JSON object",
                        details={"fieldErrors": {}, "formErrors": ["body must be a JSON object"]})

    def text(value: Any) -> Optional[str]:
        return value if isinstance(value, str) else None

    data = payload.get("data")
    kind = lowered.get(EVENT_HEADER.lower()) or text(payload.get("kind")) or text(payload.get("event")) or text(payload.get("type")) or "unknown"
    return WebhookEvent(kind=kind, id=text(payload.get("id")), occurred_at=text(payload.get("occurredAt")) or text(payload.get("createdAt")),
                        data=data if isinstance(data, dict) else payload, payload=payload)
