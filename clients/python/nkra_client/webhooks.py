from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Optional, Sequence, Union

from .errors import NkraError

SIGNATURE_HEADER = "X-Service-Signature"
EVENT_HEADER = "X-Service-Event"
PREVIOUS_SIGNATURE_HEADER = "X-Service-Signature-Previous"
#: Standard Webhooks (https://www.standardwebhooks.com) headers, sent next to the X-Service-* ones.
STANDARD_WEBHOOK_ID_HEADER = "webhook-id"
STANDARD_WEBHOOK_TIMESTAMP_HEADER = "webhook-timestamp"
STANDARD_WEBHOOK_SIGNATURE_HEADER = "webhook-signature"
#: How far webhook-timestamp may be from the receiver's clock (either way) by default, as the reference libraries.
DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300

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


def standard_webhook_key(secret: str) -> bytes:
    """The Standard Webhooks HMAC key of a ``whsec_`` secret: the base64 after the prefix (standard or URL-safe alphabet, padding optional)."""
    encoded = secret[len("whsec_"):] if secret.startswith("whsec_") else secret
    encoded = encoded.replace("-", "+").replace("_", "/").rstrip("=")
    return base64.b64decode(encoded + "=" * (-len(encoded) % 4), validate=True)


def sign_standard_webhook(msg_id: str, timestamp: Union[int, str], raw_body: Body, secret: str) -> str:
    """The Standard Webhooks signature entry ``v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">``."""
    mac = hmac.new(standard_webhook_key(secret), f"{msg_id}.{timestamp}.".encode("utf-8") + _bytes(raw_body), hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode("ascii")


def verify_standard_webhook_signature(msg_id: str, timestamp: str, raw_body: Body, signature_header: Optional[str], secret: str) -> bool:
    """True when one of the space-separated ``v1,`` entries of a webhook-signature header matches (constant time)."""
    if not secret or not msg_id or not isinstance(signature_header, str) or not timestamp.isdigit():
        return False
    try:
        expected = sign_standard_webhook(msg_id, timestamp, raw_body, secret).encode("ascii")
    except (binascii.Error, ValueError):
        return False
    found = False
    for entry in signature_header.split():
        found |= hmac.compare_digest(expected, entry.encode("ascii", "replace"))
    return found


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
    return _parse_event(raw_body, lowered)


def verify_webhook(raw_body: Body, headers: Mapping[str, str], secrets: Union[str, Sequence[str]],
                   tolerance_seconds: int = DEFAULT_WEBHOOK_TOLERANCE_SECONDS, now: Optional[float] = None) -> WebhookEvent:
    """Verifies a delivery by both signatures, then parses the event.

    X-Service-Signature (or X-Service-Signature-Previous) must match the body, and webhook-signature
    (Standard Webhooks) must match webhook-id, webhook-timestamp and the body, with one of ``secrets``
    (the current secret, plus the previous one while rotating). A webhook-timestamp more than
    ``tolerance_seconds`` (300) from ``now`` (Unix seconds, default the clock) is refused, so a captured
    delivery cannot be replayed later; still drop duplicates by webhook-id (= the event id).
    Raises NkraError INVALID_SIGNATURE (401), WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE (401) or VALIDATION_ERROR.
    """
    lowered = {k.lower(): v for k, v in headers.items()}
    keys = [secrets] if isinstance(secrets, str) else [s for s in secrets if s]
    msg_id = lowered.get(STANDARD_WEBHOOK_ID_HEADER) or ""
    timestamp = (lowered.get(STANDARD_WEBHOOK_TIMESTAMP_HEADER) or "").strip()
    if not msg_id or not timestamp.isdigit() or len(timestamp) > 15:
        raise NkraError("INVALID_SIGNATURE", "The webhook-id or webhook-timestamp header is missing or malformed", status=401)
    current = time.time() if now is None else now
    if abs(int(current) - int(timestamp)) > tolerance_seconds:
        raise NkraError("WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE",
                        f"The webhook-timestamp is more than {tolerance_seconds} s away from now (a replay or a wrong clock)", status=401)
    signatures = [v for v in (lowered.get(SIGNATURE_HEADER.lower()), lowered.get(PREVIOUS_SIGNATURE_HEADER.lower())) if v]
    legacy = any(verify_webhook_signature(raw_body, sig, key) for key in keys for sig in signatures)
    standard = any(verify_standard_webhook_signature(msg_id, timestamp, raw_body, lowered.get(STANDARD_WEBHOOK_SIGNATURE_HEADER), key) for key in keys)
    if not legacy:
        raise NkraError("INVALID_SIGNATURE", f"The {SIGNATURE_HEADER} header does not match the body", status=401)
    if not standard:
        raise NkraError("INVALID_SIGNATURE", "The webhook-signature header does not match", status=401)
    return _parse_event(raw_body, lowered)


def _parse_event(raw_body: Body, lowered: Mapping[str, str]) -> WebhookEvent:
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
