"""Send one SMS with a sandbox key: NKRA_API_KEY=nk_test_... python3 examples/send.py"""
import os

from nkra_client import NkraClient, NkraError

client = NkraClient(os.environ["NKRA_API_KEY"], base_url=os.environ.get("NKRA_BASE_URL", "http://localhost:3000"))
try:
    log = client.send("SMS", os.environ.get("NKRA_TO", "+233241234567"), "Your order has shipped")
    print(log["status"], log["id"], log.get("errorCode", ""))
except NkraError as error:
    print("failed:", error.code, error.status, error.field_errors or error.message)
    raise SystemExit(1)
