from __future__ import annotations

import asyncio
from typing import Any, List, Mapping, Optional, Sequence

from .client import NkraClient
from .types import BulkMessageItem, DeliveryLog, EventTrigger, FanOut, MessageDetail, NumberNetwork, Verification, VerificationCheck, WorkflowRun, FailedWorkflowRunPage
from .verify import AsyncVerify


class AsyncNkraClient:
    """The same client for asyncio code: each call runs the synchronous client in a worker thread
    (``asyncio.to_thread``), so the event loop is never blocked. Same options, retries, idempotency
    keys and errors as :class:`NkraClient`.
    """

    def __init__(self, api_key: str, base_url: str = "http://localhost:3000", **options: Any) -> None:
        self._client = NkraClient(api_key, base_url=base_url, **options)
        #: The Verify API: ``await client.verify.start(...)``, ``check``, ``resend``, ``cancel``, ``get``.
        self.verify = AsyncVerify(self._client)

    async def send(self, channel: str, to: str, body: Optional[str] = None, **options: Any) -> DeliveryLog:
        return await asyncio.to_thread(self._client.send, channel, to, body, **options)

    async def send_bulk(self, messages: Sequence[BulkMessageItem], **options: Any) -> List[DeliveryLog]:
        return await asyncio.to_thread(self._client.send_bulk, messages, **options)

    async def trigger_event(self, event: str, *, variables: Optional[Mapping[str, str]] = None, **options: Any) -> EventTrigger:
        return await asyncio.to_thread(self._client.trigger_event, event, variables=variables, **options)

    async def lookup_network(self, to: str, **options: Any) -> NumberNetwork:
        return await asyncio.to_thread(self._client.lookup_network, to, **options)

    async def trigger_workflow(self, event: str, **options: Any) -> WorkflowRun:
        return await asyncio.to_thread(self._client.trigger_workflow, event, **options)

    async def trigger_fan_out(self, event: str, **options: Any) -> FanOut:
        return await asyncio.to_thread(self._client.trigger_fan_out, event, **options)

    async def get_fan_out(self, fan_out_id: str, **options: Any) -> FanOut:
        return await asyncio.to_thread(self._client.get_fan_out, fan_out_id, **options)

    async def get_workflow_run(self, run_id: str, **options: Any) -> WorkflowRun:
        return await asyncio.to_thread(self._client.get_workflow_run, run_id, **options)

    async def list_failed_workflow_runs(self, **options: Any) -> FailedWorkflowRunPage:
        return await asyncio.to_thread(self._client.list_failed_workflow_runs, **options)

    async def get_message(self, message_id: str, **options: Any) -> MessageDetail:
        return await asyncio.to_thread(self._client.get_message, message_id, **options)

    async def verify_start(self, to: str, **options: Any) -> Verification:
        return await asyncio.to_thread(self._client.verify_start, to, **options)

    async def verify_check(self, code: str, **options: Any) -> VerificationCheck:
        return await asyncio.to_thread(self._client.verify_check, code, **options)

    async def verify_resend(self, verification_id: str, **options: Any) -> Verification:
        return await asyncio.to_thread(self._client.verify_resend, verification_id, **options)

    async def verify_cancel(self, verification_id: str, **options: Any) -> Verification:
        return await asyncio.to_thread(self._client.verify_cancel, verification_id, **options)

    async def verify_get(self, verification_id: str, **options: Any) -> Verification:
        return await asyncio.to_thread(self._client.verify_get, verification_id, **options)
