from __future__ import annotations

import email.utils
import http.client
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Dict, List, Mapping, Optional, Sequence, cast

from .errors import NkraError
from .types import BulkMessageItem, DeliveryLog, EventTrigger, FanOut, MessageDetail, NumberNetwork, Verification, VerificationCheck, WorkflowRun, FailedWorkflowRunPage
from .verify import Verify

API_VERSION = "1.0.0"
BULK_MAX = 100

_NETWORK_ERRORS = (urllib.error.URLError, http.client.HTTPException, ConnectionError, socket.timeout, TimeoutError, OSError)


def new_idempotency_key() -> str:
    return f"nkc-{uuid.uuid4()}"


def parse_retry_after(value: Optional[str]) -> Optional[float]:
    """Retry-After as seconds or an HTTP date, in seconds (None when absent or unreadable)."""
    if value is None or not value.strip():
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class NkraClient:
    """Client of the Nkra API (synchronous, standard library only).

    Writes (send, bulk, trigger) always carry an idempotencyKey - the caller's, or one generated per
    call - so a retry after a lost answer is answered from the first attempt instead of sending again.
    Network errors, timeouts, 429 and 5xx are retried with exponential backoff and full jitter,
    honoring Retry-After.
    """

    def __init__(self, api_key: str, base_url: str = "http://localhost:3000", timeout: float = 30.0, max_retries: int = 3,
                 base_delay: float = 0.3, max_delay: float = 10.0, max_retry_after: float = 60.0) -> None:
        if not api_key:
            raise NkraError("VALIDATION_ERROR", "api_key is required", details={"fieldErrors": {"api_key": ["is required"]}, "formErrors": []})
        self._api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.max_retry_after = max_retry_after
        #: The Verify API: ``client.verify.start(...)``, ``check``, ``resend``, ``cancel``, ``get``.
        self.verify = Verify(self)

    # -- operations -------------------------------------------------------------------------------

    def send(self, channel: str, to: str, body: Optional[str] = None, *, subject: Optional[str] = None, country_code: Optional[str] = None,
             template_id: Optional[str] = None, variables: Optional[Mapping[str, str]] = None, sender_id: Optional[str] = None,
             idempotency_key: Optional[str] = None, async_: bool = False, timeout: Optional[float] = None,
             category: Optional[str] = None, send_at: Optional[str] = None, locale: Optional[str] = None) -> DeliveryLog:
        """POST /messages/send. Returns the delivery log, also when the send was REJECTED by fraud rules.

        ``category`` applies when no template gives one (default TRANSACTIONAL, docs/consent.md); ``send_at``
        (ISO 8601, at most 35 days ahead) schedules it: the answer is SCHEDULED (docs/scheduling.md). ``locale``
        (BCP 47: ``tw``, ``fr``, ``en-GH``) picks the template's text in that locale when it has it (docs/templates.md).
        """
        payload = _compact({"channel": channel, "to": to, "body": body, "subject": subject, "countryCode": country_code, "templateId": template_id,
                            "variables": dict(variables) if variables is not None else None, "senderId": sender_id, "category": category,
                            "sendAt": send_at, "locale": locale, "async": True if async_ else None, "idempotencyKey": idempotency_key or new_idempotency_key()})
        return cast(DeliveryLog, self._request("POST", "/messages/send", payload, timeout))

    def send_bulk(self, messages: Sequence[BulkMessageItem], *, async_: bool = False, country_code: Optional[str] = None,
                  idempotency_key: Optional[str] = None, timeout: Optional[float] = None, send_at: Optional[str] = None) -> List[DeliveryLog]:
        """POST /messages/bulk: 1-100 messages (more are refused before any request), one delivery log each."""
        count = len(messages)
        if count < 1 or count > BULK_MAX:
            reason = "must contain at least 1 message" if count < 1 else f"must contain at most {BULK_MAX} messages (got {count})"
            raise NkraError("VALIDATION_ERROR", f"messages: {reason}", details={"fieldErrors": {"messages": [reason]}, "formErrors": []})
        payload = _compact({"messages": [dict(m) for m in messages], "async": True if async_ else None, "countryCode": country_code,
                            "sendAt": send_at, "idempotencyKey": idempotency_key or new_idempotency_key()})
        return cast(List[DeliveryLog], self._request("POST", "/messages/bulk", payload, timeout))

    def trigger_event(self, event: str, *, to: Optional[str] = None, contact_id: Optional[str] = None,
                      variables: Optional[Mapping[str, str]] = None, country_code: Optional[str] = None,
                      idempotency_key: Optional[str] = None, timeout: Optional[float] = None, send_at: Optional[str] = None,
                      locale: Optional[str] = None) -> EventTrigger:
        """POST /events/trigger (``to`` or ``contact_id``): the trigger with its channel plan, steps and delivery logs."""
        payload = _compact({"event": event, "to": to, "contactId": contact_id, "variables": dict(variables) if variables is not None else None,
                            "countryCode": country_code, "sendAt": send_at, "locale": locale, "idempotencyKey": idempotency_key or new_idempotency_key()})
        return cast(EventTrigger, self._request("POST", "/events/trigger", payload, timeout))

    def lookup_network(self, to: str, *, country_code: Optional[str] = None, lookup: bool = True, timeout: Optional[float] = None) -> NumberNetwork:
        """POST /routing/lookups: the network a number is on now; with ``lookup`` a paid lookup (charged like a send) unless it is known."""
        return cast(NumberNetwork, self._request("POST", "/routing/lookups", _compact({"to": to, "countryCode": country_code, "lookup": lookup}), timeout, max_retries=0))

    def trigger_workflow(self, event: str, *, to: Optional[str] = None, contact_id: Optional[str] = None,
                         variables: Optional[Mapping[str, str]] = None, country_code: Optional[str] = None, correlation_key: Optional[str] = None,
                         idempotency_key: Optional[str] = None, timeout: Optional[float] = None) -> WorkflowRun:
        """POST /events/trigger for an event with a workflow (docs/workflows.md): the run started; its steps run in the worker."""
        payload = _compact({"event": event, "to": to, "contactId": contact_id, "variables": dict(variables) if variables is not None else None,
                            "countryCode": country_code, "correlationKey": correlation_key, "idempotencyKey": idempotency_key or new_idempotency_key()})
        return cast(WorkflowRun, self._request("POST", "/events/trigger", payload, timeout))

    def trigger_fan_out(self, event: str, *, segment_id: Optional[str] = None, topic: Optional[str] = None,
                        variables: Optional[Mapping[str, str]] = None, correlation_key: Optional[str] = None,
                        idempotency_key: Optional[str] = None, timeout: Optional[float] = None) -> FanOut:
        """POST /events/trigger to a segment or a topic (a contact tag): one run or trigger per contact, streamed by the worker (docs/workflows.md, "Fan-out")."""
        payload = _compact({"event": event, "segmentId": segment_id, "topic": topic, "variables": dict(variables) if variables is not None else None,
                            "correlationKey": correlation_key, "idempotencyKey": idempotency_key or new_idempotency_key()})
        return cast(FanOut, self._request("POST", "/events/trigger", payload, timeout))

    def get_fan_out(self, fan_out_id: str, *, timeout: Optional[float] = None) -> FanOut:
        """GET /fan-outs/{id}: a fan-out's status, counts and progress."""
        return cast(FanOut, self._request("GET", f"/fan-outs/{urllib.parse.quote(fan_out_id, safe='')}", None, timeout))

    def get_workflow_run(self, run_id: str, *, timeout: Optional[float] = None) -> WorkflowRun:
        """GET /workflow-runs/{id}: a workflow run with its timeline (steps, waits, outcomes, messages, cost)."""
        return cast(WorkflowRun, self._request("GET", f"/workflow-runs/{urllib.parse.quote(run_id, safe='')}", None, timeout))

    def list_failed_workflow_runs(self, *, since: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None,
                                  timeout: Optional[float] = None) -> FailedWorkflowRunPage:
        """GET /workflow-runs?status=FAILED: runs that gave up, the latest failure first (since: default 24 hours ago; cursor: the previous nextCursor)."""
        query = urllib.parse.urlencode(_compact({"status": "FAILED", "since": since, "limit": limit, "cursor": cursor}))
        return cast(FailedWorkflowRunPage, self._request("GET", f"/workflow-runs?{query}", None, timeout))

    def get_message(self, message_id: str, *, timeout: Optional[float] = None) -> MessageDetail:
        """GET /messages/{id}: one delivery log with its provider attempts and status history."""
        return cast(MessageDetail, self._request("GET", f"/messages/{urllib.parse.quote(message_id, safe='')}", None, timeout))

    def verify_start(self, to: str, *, channel: Optional[str] = None, channels: Optional[Sequence[str]] = None, country_code: Optional[str] = None,
                     code_length: Optional[int] = None, expires_in_seconds: Optional[int] = None, fallback_after_seconds: Optional[int] = None,
                     locale: Optional[str] = None, template: Optional[str] = None, ip_address: Optional[str] = None,
                     idempotency_key: Optional[str] = None, timeout: Optional[float] = None) -> Verification:
        """POST /verify/start: sends a one-time passcode; the answer never carries the code (docs/verify.md)."""
        payload = _compact({"to": to, "channel": channel, "channels": list(channels) if channels is not None else None, "countryCode": country_code,
                            "codeLength": code_length, "expiresInSeconds": expires_in_seconds, "fallbackAfterSeconds": fallback_after_seconds,
                            "locale": locale, "template": template, "ipAddress": ip_address, "idempotencyKey": idempotency_key or new_idempotency_key()})
        return cast(Verification, self._request("POST", "/verify/start", payload, timeout))

    def verify_check(self, code: str, *, verification_id: Optional[str] = None, to: Optional[str] = None, country_code: Optional[str] = None,
                     timeout: Optional[float] = None) -> VerificationCheck:
        """POST /verify/check by ``verification_id`` or ``to``: ``valid`` and the status (a wrong code is not an error)."""
        payload = _compact({"id": verification_id, "to": to, "countryCode": country_code, "code": code})
        return cast(VerificationCheck, self._request("POST", "/verify/check", payload, timeout))

    def verify_resend(self, verification_id: str, *, channel: Optional[str] = None, timeout: Optional[float] = None) -> Verification:
        """POST /verify/{id}/resend: a new code (the previous one stops working); 30 s apart, 5 sends at most."""
        # Never retried: a resend carries no idempotency key, so a retry after a lost answer would send a second code.
        return cast(Verification, self._request("POST", f"/verify/{urllib.parse.quote(verification_id, safe='')}/resend", _compact({"channel": channel}), timeout,
                                                max_retries=0))

    def verify_cancel(self, verification_id: str, *, timeout: Optional[float] = None) -> Verification:
        """POST /verify/{id}/cancel."""
        return cast(Verification, self._request("POST", f"/verify/{urllib.parse.quote(verification_id, safe='')}/cancel", {}, timeout))

    def verify_get(self, verification_id: str, *, timeout: Optional[float] = None) -> Verification:
        """GET /verify/{id}: the verification with its sends' delivery status."""
        return cast(Verification, self._request("GET", f"/verify/{urllib.parse.quote(verification_id, safe='')}", None, timeout))

    # -- transport --------------------------------------------------------------------------------

    def _request(self, method: str, path: str, payload: Optional[Dict[str, Any]], timeout: Optional[float], max_retries: Optional[int] = None) -> Any:
        data = json.dumps(payload).encode("utf-8") if payload is not None else None
        attempt = 0
        while True:
            retry_after: Optional[float] = None
            try:
                return self._once(method, path, data, timeout if timeout is not None else self.timeout)
            except NkraError as error:
                failure = error
                if error.status and not (error.status == 429 or error.status >= 500):
                    raise
                retry_after = error.retry_after
                if retry_after is not None and retry_after > self.max_retry_after:
                    raise
            if attempt >= (self.max_retries if max_retries is None else max_retries):
                raise failure
            delay = retry_after if retry_after is not None else random.uniform(0, min(self.max_delay, self.base_delay * (2 ** attempt)))
            time.sleep(delay)
            attempt += 1

    def _once(self, method: str, path: str, data: Optional[bytes], timeout: float) -> Any:
        headers = {"X-API-Key": self._api_key, "Accept": "application/json", "User-Agent": f"nkra-client-python/{API_VERSION}"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(f"{self.base_url}{path}", data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, raw, response_headers = response.status, response.read(), response.headers
        except urllib.error.HTTPError as error:
            try:
                raw = error.read()
            except _NETWORK_ERRORS:
                raw = b""
            status, response_headers = error.code, error.headers
        except (socket.timeout, TimeoutError) as error:
            raise NkraError("TIMEOUT", f"No answer within {timeout} s") from error
        except _NETWORK_ERRORS as error:
            reason = getattr(error, "reason", None)
            if isinstance(reason, (socket.timeout, TimeoutError)):
                raise NkraError("TIMEOUT", f"No answer within {timeout} s") from error
            raise NkraError("NETWORK_ERROR", f"The request failed before an answer: {error!r}") from error
        try:
            envelope = json.loads(raw.decode("utf-8")) if raw else None
        except (ValueError, UnicodeDecodeError):
            envelope = None
        if 200 <= status < 300 and isinstance(envelope, dict) and envelope.get("success") is True:
            return envelope.get("data")
        err = envelope.get("error") if isinstance(envelope, dict) and isinstance(envelope.get("error"), dict) else {}
        failure = NkraError(str(err.get("code") or f"HTTP_{status}"), str(err.get("message") or f"HTTP {status}"), status=status,
                            details=err.get("details") if isinstance(err.get("details"), dict) else {},
                            request_id=response_headers.get("X-Request-Id") if response_headers is not None else None,
                            retry_after=parse_retry_after(response_headers.get("Retry-After") if response_headers is not None else None))
        raise failure


def _compact(values: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}
