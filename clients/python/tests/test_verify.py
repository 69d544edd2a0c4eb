"""client.verify (and the verify_* methods) against a local stub of the Verify API (docs/verify.md).

Needs no running API: `python3 -m unittest discover -s clients/python/tests` with PYTHONPATH=clients/python.
"""
from __future__ import annotations

import asyncio
import json
import threading
import unittest
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, Dict, List, Optional, Tuple

from nkra_client import AsyncNkraClient, NkraClient, NkraError

Reply = Tuple[int, Dict[str, Any], Dict[str, str]]


def verification(**over: Any) -> Dict[str, Any]:
    base = {"id": "ver_1", "to": "+233241234567", "country": "GH", "channel": "SMS", "channels": ["SMS"], "status": "PENDING", "codeLength": 6,
            "expiresAt": "2026-11-25T10:10:00.000Z", "sendAttempts": 1, "maxSendAttempts": 5, "checkAttempts": 0, "maxCheckAttempts": 5,
            "sends": [{"channel": "SMS", "messageId": "msg_1", "status": "DELIVERED", "createdAt": "2026-11-25T10:00:00.000Z"}],
            "createdAt": "2026-11-25T10:00:00.000Z", "updatedAt": "2026-11-25T10:00:00.000Z"}
    base.update(over)
    return base


def ok(data: Any, status: int = 200) -> Reply:
    return status, {"success": True, "data": data}, {}


def fail(status: int, code: str, details: Optional[Dict[str, Any]] = None, headers: Optional[Dict[str, str]] = None) -> Reply:
    return status, {"success": False, "error": {"code": code, "message": code, "details": details or {}}}, headers or {}


class Stub:
    """An HTTP server on 127.0.0.1 answering queued replies and recording (method, path, body)."""

    def __init__(self) -> None:
        self.seen: List[Tuple[str, str, Optional[Dict[str, Any]]]] = []
        self.replies: List[Reply] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                stub.seen.append((self.command, self.path, json.loads(raw) if raw else None))
                status, body, headers = stub.replies.pop(0) if stub.replies else fail(500, "INTERNAL")
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("X-Request-Id", f"req-{len(stub.seen)}")
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _answer

            def log_message(self, *args: Any) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class VerifyAgainstAStub(unittest.TestCase):
    def setUp(self) -> None:
        self.stub = Stub()
        self.client = NkraClient("nk_test_stub", base_url=self.stub.url, timeout=5, base_delay=0.001, max_delay=0.005)

    def tearDown(self) -> None:
        self.stub.close()

    def test_start_sends_every_option_and_a_generated_idempotency_key(self) -> None:
        self.stub.replies.append(ok(verification(channels=["SMS", "VOICE"]), 201))
        started = self.client.verify.start("0241234567", channels=["SMS", "VOICE"], country_code="GH", code_length=6, expires_in_seconds=300,
                                           fallback_after_seconds=45, locale="tw", template="Code {{code}}", ip_address="203.0.113.9")
        self.assertEqual((started["id"], started["channels"]), ("ver_1", ["SMS", "VOICE"]))
        method, path, body = self.stub.seen[0]
        self.assertEqual((method, path), ("POST", "/verify/start"))
        key = (body or {}).pop("idempotencyKey")
        self.assertTrue(key.startswith("nkc-"))
        self.assertEqual(body, {"to": "0241234567", "channels": ["SMS", "VOICE"], "countryCode": "GH", "codeLength": 6, "expiresInSeconds": 300,
                                "fallbackAfterSeconds": 45, "locale": "tw", "template": "Code {{code}}", "ipAddress": "203.0.113.9"})

    def test_a_retried_start_reuses_its_key_and_the_next_call_gets_a_new_one(self) -> None:
        self.stub.replies += [fail(503, "SERVICE_UNAVAILABLE"), ok(verification(), 201), ok(verification(id="ver_2"), 201)]
        self.assertEqual(self.client.verify.start("+233241234567")["id"], "ver_1")
        self.assertEqual(self.client.verify_start("+233241234567")["id"], "ver_2")
        keys = [body["idempotencyKey"] for _, _, body in self.stub.seen if body]
        self.assertEqual(keys[0], keys[1])
        self.assertNotEqual(keys[2], keys[0])

    def test_keeps_the_callers_idempotency_key(self) -> None:
        self.stub.replies.append(ok(verification(), 201))
        self.client.verify.start("+233241234567", channel="WHATSAPP", idempotency_key="signup-42")
        self.assertEqual(self.stub.seen[0][2], {"to": "+233241234567", "channel": "WHATSAPP", "idempotencyKey": "signup-42"})

    def test_check_by_id_or_recipient_answers_a_wrong_code_as_a_result(self) -> None:
        self.stub.replies += [ok({"id": "ver_1", "status": "PENDING", "valid": False, "remainingAttempts": 4}),
                              ok({"id": "ver_1", "status": "APPROVED", "valid": True, "remainingAttempts": 3})]
        self.assertEqual(self.client.verify.check("000000", verification_id="ver_1"), {"id": "ver_1", "status": "PENDING", "valid": False, "remainingAttempts": 4})
        self.assertTrue(self.client.verify.check("482913", to="0241234567", country_code="GH")["valid"])
        self.assertEqual(self.stub.seen, [("POST", "/verify/check", {"id": "ver_1", "code": "000000"}),
                                          ("POST", "/verify/check", {"to": "0241234567", "countryCode": "GH", "code": "482913"})])

    def test_get_cancel_and_resend_by_id(self) -> None:
        self.stub.replies += [ok(verification()), ok(verification(status="CANCELED")), ok(verification(channel="VOICE", sendAttempts=2))]
        self.assertEqual(self.client.verify.get("ver_1")["sends"][0]["messageId"], "msg_1")
        self.assertEqual(self.client.verify.cancel("ver/1")["status"], "CANCELED")
        self.assertEqual(self.client.verify.resend("ver_1", channel="VOICE")["channel"], "VOICE")
        self.assertEqual(self.stub.seen, [("GET", "/verify/ver_1", None), ("POST", "/verify/ver%2F1/cancel", {}),
                                          ("POST", "/verify/ver_1/resend", {"channel": "VOICE"})])

    def test_rate_limited_start_raises_nkra_error_with_rule_and_retry_after(self) -> None:
        self.stub.replies.append(fail(429, "VERIFY_RATE_LIMITED", {"rule": "ip"}, {"Retry-After": "3600"}))
        with self.assertRaises(NkraError) as caught:
            self.client.verify.start("+233241234567", ip_address="203.0.113.9")
        error = caught.exception
        self.assertEqual((error.code, error.status, error.details, error.retry_after, error.request_id), ("VERIFY_RATE_LIMITED", 429, {"rule": "ip"}, 3600.0, "req-1"))
        self.assertEqual(len(self.stub.seen), 1)  # an hour is beyond max_retry_after: not waited for

    def test_resend_is_never_retried(self) -> None:
        self.stub.replies += [fail(429, "VERIFY_RESEND_COOLDOWN", headers={"Retry-After": "12"}), ok(verification())]
        with self.assertRaises(NkraError) as caught:
            self.client.verify.resend("ver_1")
        self.assertEqual((caught.exception.code, caught.exception.retry_after), ("VERIFY_RESEND_COOLDOWN", 12.0))
        self.assertEqual(len(self.stub.seen), 1)

    def test_rule_refusals_are_not_retried(self) -> None:
        self.stub.replies += [fail(422, "VERIFY_COUNTRY_NOT_ALLOWED"), fail(422, "VERIFY_PREFIX_BLOCKED"), fail(422, "VERIFY_MAX_SENDS"), fail(404, "NOT_FOUND")]
        calls = [lambda: self.client.verify.start("+2348031234567"), lambda: self.client.verify.start("+233241234567"),
                 lambda: self.client.verify.resend("ver_1"), lambda: self.client.verify.check("123456", verification_id="nope")]
        codes = []
        for call in calls:
            with self.assertRaises(NkraError) as caught:
                call()
            codes.append((caught.exception.code, caught.exception.status, caught.exception.retry_after))
        self.assertEqual(codes, [("VERIFY_COUNTRY_NOT_ALLOWED", 422, None), ("VERIFY_PREFIX_BLOCKED", 422, None), ("VERIFY_MAX_SENDS", 422, None), ("NOT_FOUND", 404, None)])
        self.assertEqual(len(self.stub.seen), 4)

    def test_the_async_client_has_the_same_surface(self) -> None:
        self.stub.replies += [ok(verification(), 201), ok({"id": "ver_1", "status": "APPROVED", "valid": True, "remainingAttempts": 4})]
        client = AsyncNkraClient("nk_test_stub", base_url=self.stub.url, timeout=5)

        async def flow() -> bool:
            started = await client.verify.start("+233241234567")
            return (await client.verify.check("482913", verification_id=started["id"]))["valid"]

        self.assertTrue(asyncio.run(flow()))
        self.assertEqual([path for _, path, _ in self.stub.seen], ["/verify/start", "/verify/check"])


if __name__ == "__main__":
    unittest.main()
