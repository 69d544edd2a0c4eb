"""Tests of nkra_client against a running API (the mocha file tests/clients/clients.test.ts starts it).

Environment: NKRA_BASE_URL, NKRA_API_KEY (sandbox), NKRA_PROXY_URL (a proxy that drops the first
response), NKRA_JWT + NKRA_ORGANIZATION_ID (to count delivery logs), NKRA_EVENT (an event slug).
Without NKRA_BASE_URL only the offline tests run.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import threading
import unittest
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, Dict, List

from nkra_client import AsyncNkraClient, NkraClient, NkraError, parse_retry_after, parse_webhook, sign_webhook_body, verify_webhook_signature

BASE_URL = os.environ.get("NKRA_BASE_URL")
API_KEY = os.environ.get("NKRA_API_KEY", "")


def phone(n: int) -> str:
    return f"+23324{9_000_000 + n:07d}"


def logs_to(recipient: str) -> List[Dict[str, Any]]:
    request = urllib.request.Request(f"{BASE_URL}/delivery-logs?limit=100", headers={
        "Authorization": f"Bearer {os.environ['NKRA_JWT']}", "X-Organization-Id": os.environ["NKRA_ORGANIZATION_ID"]})
    with urllib.request.urlopen(request, timeout=10) as response:
        items = json.loads(response.read())["data"]["items"]
    return [item for item in items if item["recipient"] == recipient]


@unittest.skipUnless(BASE_URL, "NKRA_BASE_URL not set (run through npm test)")
class AgainstTheApi(unittest.TestCase):
    def setUp(self) -> None:
        self.client = NkraClient(API_KEY, base_url=BASE_URL or "", timeout=10)

    def test_send_and_lookup(self) -> None:
        log = self.client.send("SMS", phone(1), "Hello from Python")
        self.assertEqual((log["status"], log["channel"], log["recipient"], log["isSandbox"]), ("DELIVERED", "SMS", phone(1), True))
        detail = self.client.get_message(log["id"])
        self.assertEqual(detail["body"], "Hello from Python")

    def test_verify(self) -> None:
        started = self.client.verify_start(phone(40))
        self.assertEqual((started["status"], started["channel"], started["to"]), ("PENDING", "SMS", phone(40)))
        self.assertEqual(len(self.client.verify_get(started["id"])["sends"]), 1)
        checked = self.client.verify_check("0000000000", verification_id=started["id"])
        self.assertEqual((checked["valid"], checked["status"], checked["remainingAttempts"]), (False, "PENDING", 4))
        self.assertEqual(self.client.verify_check("0000000000", to=phone(40))["id"], started["id"])
        self.assertEqual(self.client.verify_cancel(started["id"])["status"], "CANCELED")
        with self.assertRaises(NkraError) as refused:
            self.client.verify_resend(started["id"])
        self.assertEqual((refused.exception.code, refused.exception.status), ("CONFLICT", 409))

    def test_fraud_rejection_is_a_result(self) -> None:
        log = self.client.send("SMS", "+448712345678", "x")
        self.assertEqual((log["status"], log.get("errorCode")), ("REJECTED", "FRAUD_PREMIUM_RATE"))

    def test_bulk(self) -> None:
        logs = self.client.send_bulk([{"channel": "SMS", "to": phone(2), "body": "one"}, {"channel": "SMS", "to": phone(3), "body": "two"}])
        self.assertEqual([l["status"] for l in logs], ["DELIVERED", "DELIVERED"])

    def test_bulk_over_100_refused_before_calling(self) -> None:
        offline = NkraClient("nk_test_x", base_url="http://127.0.0.1:9", max_retries=0)
        with self.assertRaises(NkraError) as caught:
            offline.send_bulk([{"channel": "SMS", "to": phone(i), "body": "x"} for i in range(101)])
        self.assertEqual((caught.exception.code, caught.exception.status), ("VALIDATION_ERROR", 0))
        self.assertIn("at most 100", caught.exception.field_errors["messages"][0])

    def test_trigger_event(self) -> None:
        trigger = self.client.trigger_event(os.environ["NKRA_EVENT"], to=phone(4), variables={"name": "Kofi", "order": "P-1"})
        self.assertEqual((trigger["status"], trigger["channel"]), ("DELIVERED", "SMS"))
        self.assertEqual(self.client.get_message(trigger["deliveryLogs"][0]["id"])["body"], "Hi Kofi, order P-1 shipped")

    def test_list_failed_workflow_runs(self) -> None:
        page = self.client.list_failed_workflow_runs(since="2026-01-01T00:00:00Z", limit=5)
        self.assertEqual(page, {"items": [], "since": "2026-01-01T00:00:00.000Z", "limit": 5, "nextCursor": None})
        with self.assertRaises(NkraError) as caught:
            self.client.list_failed_workflow_runs(since="yesterday")
        self.assertEqual((caught.exception.code, caught.exception.status), ("VALIDATION_ERROR", 400))

    def test_trigger_fan_out(self) -> None:
        fan_out = self.client.trigger_fan_out(os.environ["NKRA_EVENT"], topic="py-client-nobody", variables={"name": "Kofi", "order": "F-1"})
        self.assertEqual((fan_out["fanOut"], fan_out["kind"], fan_out["total"]), (True, "TRIGGERS", 0))
        self.assertEqual(self.client.get_fan_out(fan_out["id"])["id"], fan_out["id"])

    def test_schedule_with_send_at_and_category(self) -> None:
        import datetime
        send_at = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        log = self.client.send("SMS", phone(10), "Your appointment is tomorrow", category="REMINDER", send_at=send_at)
        self.assertEqual((log["status"], log["scheduledAt"], log["category"]), ("SCHEDULED", send_at, "REMINDER"))

    def test_validation_error(self) -> None:
        with self.assertRaises(NkraError) as caught:
            self.client.send("FAX", phone(5), "x")
        error = caught.exception
        self.assertEqual((error.code, error.status), ("VALIDATION_ERROR", 400))
        self.assertIn("channel", error.field_errors)
        self.assertEqual(error.form_errors, [])
        with self.assertRaises(NkraError) as neither:
            self.client.trigger_event(os.environ["NKRA_EVENT"])
        self.assertEqual(neither.exception.form_errors, ["to or contactId is required"])

    def test_async_client(self) -> None:
        import asyncio

        async def both() -> List[Any]:
            client = AsyncNkraClient(API_KEY, base_url=BASE_URL or "", timeout=10)
            return list(await asyncio.gather(client.send("SMS", phone(8), "async one"), client.trigger_event(os.environ["NKRA_EVENT"], to=phone(9),
                                                                                                             variables={"name": "A", "order": "1"})))
        log, trigger = asyncio.run(both())
        self.assertEqual((log["status"], trigger["status"]), ("DELIVERED", "DELIVERED"))

    def test_retry_after_dropped_connection_sends_once(self) -> None:
        via_proxy = NkraClient(API_KEY, base_url=os.environ["NKRA_PROXY_URL"], timeout=10, base_delay=0.05)
        log = via_proxy.send("SMS", phone(6), "sent once")
        self.assertEqual(log["status"], "DELIVERED")
        self.assertEqual([l["id"] for l in logs_to(phone(6))], [log["id"]])


class Offline(unittest.TestCase):
    def test_webhook_signature(self) -> None:
        secret = "whsec_test_secret"
        body = json.dumps({"id": "evt_1", "kind": "message.status.updated", "data": {"messageId": "m1", "status": "DELIVERED"}}).encode()
        signature = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        self.assertEqual(sign_webhook_body(body, secret), signature)
        self.assertTrue(verify_webhook_signature(body, signature, secret))
        self.assertFalse(verify_webhook_signature(body + b" ", signature, secret))
        self.assertFalse(verify_webhook_signature(body, signature, "another"))
        self.assertFalse(verify_webhook_signature(body, None, secret))
        self.assertFalse(verify_webhook_signature(body, "é", secret))
        event = parse_webhook(body, {"x-service-signature": signature, "X-Service-Event": "message.status.updated"}, secret)
        self.assertEqual((event.kind, event.id, event.data), ("message.status.updated", "evt_1", {"messageId": "m1", "status": "DELIVERED"}))
        with self.assertRaises(NkraError) as forged:
            parse_webhook(body.replace(b"DELIVERED", b"FAILED"), {"X-Service-Signature": signature}, secret)
        self.assertEqual((forged.exception.code, forged.exception.status), ("INVALID_SIGNATURE", 401))

    def test_retries_5xx_and_429_with_one_idempotency_key(self) -> None:
        answers = [503, 429, 201]
        bodies: List[Dict[str, Any]] = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                bodies.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
                status = answers.pop(0) if answers else 500
                payload = {"success": True, "data": {"id": "m1", "status": "SENT"}} if status == 201 else \
                    {"success": False, "error": {"code": "RATE_LIMITED" if status == 429 else "SERVICE_UNAVAILABLE", "message": "later", "details": {}}}
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                if status != 201:
                    self.send_header("Retry-After", "0")
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: Any) -> None:
                pass

        server = HTTPServer(("127.0.0.1", 0), Handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            client = NkraClient("nk_test_x", base_url=f"http://127.0.0.1:{server.server_address[1]}", base_delay=0.01)
            self.assertEqual(client.send("SMS", phone(7), "x")["id"], "m1")
            self.assertEqual(len(bodies), 3)
            self.assertEqual(len({b["idempotencyKey"] for b in bodies}), 1)
            answers.append(503)
            with self.assertRaises(NkraError) as caught:
                NkraClient("nk_test_x", base_url=f"http://127.0.0.1:{server.server_address[1]}", max_retries=0).send("SMS", phone(7), "x")
            self.assertEqual((caught.exception.code, caught.exception.status), ("SERVICE_UNAVAILABLE", 503))
        finally:
            server.shutdown()
            server.server_close()

    def test_network_error_after_retries(self) -> None:
        client = NkraClient("nk_test_x", base_url="http://127.0.0.1:9", max_retries=1, base_delay=0.01, timeout=2)
        with self.assertRaises(NkraError) as caught:
            client.get_message("m1")
        self.assertEqual((caught.exception.code, caught.exception.status), ("NETWORK_ERROR", 0))

    def test_parse_retry_after(self) -> None:
        self.assertEqual(parse_retry_after("3"), 3.0)
        self.assertIsNone(parse_retry_after(None))
        self.assertIsNone(parse_retry_after("soon"))


if __name__ == "__main__":
    unittest.main()
