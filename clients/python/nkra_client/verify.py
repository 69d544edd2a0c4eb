"""``client.verify``: the Verify API (docs/verify.md) under one name, as in the TypeScript client.

The methods are the client's ``verify_*`` ones: ``start`` carries an idempotency key (generated per
call when none is given, reused for that call's retries); ``check`` answers ``valid`` and the status
(a wrong code is not an error); ``resend`` is never retried (it carries no idempotency key).
"""
from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from .types import Verification, VerificationCheck

if TYPE_CHECKING:
    from .client import NkraClient


class Verify:
    def __init__(self, client: "NkraClient") -> None:
        self._client = client

    def start(self, to: str, **options: Any) -> Verification:
        """POST /verify/start. Options: channel, channels, country_code, code_length, expires_in_seconds,
        fallback_after_seconds, locale, template, ip_address, idempotency_key, timeout."""
        return self._client.verify_start(to, **options)

    def check(self, code: str, **options: Any) -> VerificationCheck:
        """POST /verify/check by ``verification_id``, or by ``to`` (with ``country_code`` for national numbers)."""
        return self._client.verify_check(code, **options)

    def resend(self, verification_id: str, **options: Any) -> Verification:
        """POST /verify/{id}/resend (optional ``channel``): a new code; 30 s apart, 5 sends at most."""
        return self._client.verify_resend(verification_id, **options)

    def cancel(self, verification_id: str, **options: Any) -> Verification:
        """POST /verify/{id}/cancel."""
        return self._client.verify_cancel(verification_id, **options)

    def get(self, verification_id: str, **options: Any) -> Verification:
        """GET /verify/{id}."""
        return self._client.verify_get(verification_id, **options)


class AsyncVerify:
    """The same methods for asyncio code (each runs the synchronous call in a worker thread)."""

    def __init__(self, client: "NkraClient") -> None:
        self._verify = Verify(client)

    async def start(self, to: str, **options: Any) -> Verification:
        return await asyncio.to_thread(self._verify.start, to, **options)

    async def check(self, code: str, **options: Any) -> VerificationCheck:
        return await asyncio.to_thread(self._verify.check, code, **options)

    async def resend(self, verification_id: str, **options: Any) -> Verification:
        return await asyncio.to_thread(self._verify.resend, verification_id, **options)

    async def cancel(self, verification_id: str, **options: Any) -> Verification:
        return await asyncio.to_thread(self._verify.cancel, verification_id, **options)

    async def get(self, verification_id: str, **options: Any) -> Verification:
        return await asyncio.to_thread(self._verify.get, verification_id, **options)
