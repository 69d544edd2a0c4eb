"""Offline tests of the Standard Webhooks verification (the spec's published test vector) and replay refusal."""
from __future__ import annotations

import hashlib
import hmac
import unittest

from nkra_client import NkraError, sign_standard_webhook, verify_standard_webhook_signature, verify_webhook

# The Standard Webhooks spec's example, as in the reference libraries' tests.
MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
TIMESTAMP = "1614265330"
PAYLOAD = b'{"test": 2432232314}'
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


class StandardWebhooks(unittest.TestCase):
    def headers(self, secret: str = SECRET) -> dict:
        return {"webhook-id": MSG_ID, "webhook-timestamp": TIMESTAMP, "webhook-signature": sign_standard_webhook(MSG_ID, TIMESTAMP, PAYLOAD, secret),
                "X-Service-Signature": hmac.new(secret.encode(), PAYLOAD, hashlib.sha256).hexdigest()}

    def test_spec_test_vector(self) -> None:
        self.assertEqual(sign_standard_webhook(MSG_ID, TIMESTAMP, PAYLOAD, SECRET), SIGNATURE)
        self.assertTrue(verify_standard_webhook_signature(MSG_ID, TIMESTAMP, PAYLOAD, f"v1,bogus {SIGNATURE}", SECRET))
        self.assertFalse(verify_standard_webhook_signature(MSG_ID, "1614265331", PAYLOAD, SIGNATURE, SECRET))
        self.assertFalse(verify_standard_webhook_signature(MSG_ID, TIMESTAMP, PAYLOAD + b" ", SIGNATURE, SECRET))

    def test_verify_webhook_checks_both_signatures_and_the_timestamp(self) -> None:
        now = int(TIMESTAMP)
        event = verify_webhook(PAYLOAD, self.headers(), [SECRET], now=now + 299)
        self.assertEqual(event.payload, {"test": 2432232314})
        with self.assertRaises(NkraError) as stale:
            verify_webhook(PAYLOAD, self.headers(), SECRET, now=now + 301)
        self.assertEqual((stale.exception.code, stale.exception.status), ("WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE", 401))
        broken = dict(self.headers(), **{"webhook-signature": SIGNATURE.replace("g0h", "g0i")})
        with self.assertRaises(NkraError) as forged:
            verify_webhook(PAYLOAD, broken, SECRET, now=now)
        self.assertEqual(forged.exception.code, "INVALID_SIGNATURE")
        without_legacy = {k: v for k, v in self.headers().items() if k != "X-Service-Signature"}
        with self.assertRaises(NkraError):
            verify_webhook(PAYLOAD, without_legacy, SECRET, now=now)
        with self.assertRaises(NkraError):
            verify_webhook(PAYLOAD, self.headers(), "whsec_dGhlLW90aGVyLXNlY3JldA==", now=now)


if __name__ == "__main__":
    unittest.main()
