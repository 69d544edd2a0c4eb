"""Client for the Nkra notification API (standard library only, Python 3.9+)."""
from .async_client import AsyncNkraClient
from .client import API_VERSION, BULK_MAX, NkraClient, new_idempotency_key, parse_retry_after
from .errors import NkraError
from .types import CHANNELS, BulkMessageItem, DeliveryLog, EventTrigger, FanOut, MessageDetail, NumberNetwork, TriggerStep, Verification, VerificationCheck, WorkflowRun, FailedWorkflowRun, FailedWorkflowRunPage
from .verify import AsyncVerify, Verify
from .webhooks import (DEFAULT_WEBHOOK_TOLERANCE_SECONDS, EVENT_HEADER, PREVIOUS_SIGNATURE_HEADER, SIGNATURE_HEADER, WebhookEvent, parse_webhook, sign_standard_webhook,
                       sign_webhook_body, standard_webhook_key, verify_standard_webhook_signature, verify_webhook, verify_webhook_signature)

__version__ = "1.0.0"
__all__ = [
    "API_VERSION", "AsyncNkraClient", "BULK_MAX", "CHANNELS", "EVENT_HEADER", "SIGNATURE_HEADER", "BulkMessageItem", "DeliveryLog", "EventTrigger",
    "MessageDetail", "NkraClient", "NumberNetwork", "NkraError", "TriggerStep", "Verification", "VerificationCheck", "Verify", "AsyncVerify", "WebhookEvent", "new_idempotency_key", "parse_retry_after",
    "parse_webhook", "sign_webhook_body", "verify_webhook_signature", "DEFAULT_WEBHOOK_TOLERANCE_SECONDS", "PREVIOUS_SIGNATURE_HEADER", "sign_standard_webhook",
    "standard_webhook_key", "verify_standard_webhook_signature", "verify_webhook", "WorkflowRun", "FanOut", "FailedWorkflowRun", "FailedWorkflowRunPage",
]
