"""Typed shapes of the API's inputs and results (spec sections 2 and 4)."""
from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional

if sys.version_info >= (3, 11):
    from typing import Literal, NotRequired, TypedDict
else:  # pragma: no cover - Python 3.9 / 3.10
    from typing import Literal, TypedDict
    try:
        from typing_extensions import NotRequired  # type: ignore
    except ImportError:  # stdlib only: NotRequired is a typing aid, Optional is close enough at runtime
        NotRequired = Optional  # type: ignore

#: The spec's five channels plus IN_APP, the in-app inbox (docs/inbox.md).
Channel = Literal["SMS", "WHATSAPP", "EMAIL", "PUSH", "VOICE", "IN_APP"]
CHANNELS = ("SMS", "WHATSAPP", "EMAIL", "PUSH", "VOICE", "IN_APP")
#: SCHEDULED: held until ``scheduledAt`` (a send_at, a send window, quiet hours); CANCELLED: withdrawn before then, refunded.
DeliveryStatus = Literal["QUEUED", "PENDING", "SENT", "DELIVERED", "FAILED", "REJECTED", "SCHEDULED", "CANCELLED"]
TriggerStatus = Literal["PENDING", "SENT", "DELIVERED", "FAILED"]


class DeliveryLog(TypedDict):
    """The result of a send. ``cost`` is in GHS. ``errorCode`` is present on REJECTED and FAILED messages."""
    id: str
    internalMessageId: str
    status: DeliveryStatus
    channel: Channel
    recipient: str
    cost: float
    segments: int
    encoding: Optional[str]
    isSandbox: bool
    templateId: Optional[str]
    category: str
    locale: NotRequired[str]
    scheduledAt: Optional[str]
    provider: Optional[str]
    network: NotRequired[Optional[str]]
    attempts: int
    createdAt: str
    updatedAt: str
    sentAt: Optional[str]
    deliveredAt: Optional[str]
    failedAt: Optional[str]
    errorCode: NotRequired[str]
    errorMessage: NotRequired[str]


class NumberNetwork(TypedDict):
    """POST /routing/lookups: the mobile network a number is on now. ``charged`` is in GHS (0 when no paid lookup ran)."""
    number: str
    country: Optional[str]
    network: Optional[str]
    source: Optional[str]
    charged: float


class MessageDetail(DeliveryLog):
    subject: Optional[str]
    body: str
    attemptLog: List[Dict[str, object]]
    statusHistory: List[Dict[str, object]]


class BulkMessageItem(TypedDict, total=False):
    channel: Channel
    to: str
    body: str
    subject: str
    variables: Dict[str, str]
    senderId: str
    templateId: str
    category: str
    sendAt: str


class TriggerStep(TypedDict):
    sequence: int
    channel: Channel
    recipient: str
    attempt: int
    messageId: Optional[str]
    status: Optional[str]
    errorCode: Optional[str]
    errorMessage: Optional[str]
    at: str


class EventTrigger(TypedDict):
    id: str
    event: str
    eventId: str
    contactId: Optional[str]
    to: Optional[str]
    status: TriggerStatus
    channel: Optional[Channel]
    plan: List[Channel]
    unreachable: List[Dict[str, str]]
    retryRules: Dict[str, float]
    retryAt: Optional[str]
    steps: List[TriggerStep]
    deliveryLogs: List[DeliveryLog]
    createdAt: str
    updatedAt: str


class WorkflowRun(TypedDict, total=False):
    """A workflow run (docs/workflows.md): the answer of POST /events/trigger for an event with a workflow, and of GET /workflow-runs/{id}."""
    workflowRun: bool
    id: str
    eventId: str
    event: str
    version: int
    status: str
    cursor: int
    correlationKey: Optional[str]
    waitingFor: Optional[str]  # a trigger wait's event slug, or read:<subscriberId>, reply:<phone>, click:<triggerId>
    error: Optional[Dict[str, str]]
    attempts: int
    steps: List[Dict[str, Any]]
    timeline: List[Dict[str, Any]]
    cost: int
    cancelled: List[str]
    resumed: List[str]
    createdAt: str
    updatedAt: str


class FailedWorkflowRun(TypedDict, total=False):
    """A run that gave up, as GET /workflow-runs?status=FAILED lists it (docs/workflows.md, "Failed runs")."""
    id: str
    eventId: str
    event: str
    version: int
    correlationKey: Optional[str]
    failedStep: int
    failedStepType: Optional[str]
    error: Optional[Dict[str, str]]
    attempts: int
    failedAt: str
    createdAt: str


class FailedWorkflowRunPage(TypedDict):
    """A page of failed runs, the latest failure first; nextCursor (None on the last page) fetches the next, older one."""
    items: List[FailedWorkflowRun]
    since: str
    limit: int
    nextCursor: Optional[str]


class FanOut(TypedDict, total=False):
    """A fan-out (docs/workflows.md, "Fan-out"): the answer of POST /events/trigger to a segment or topic, and of GET /fan-outs/{id}."""
    fanOut: bool
    id: str
    event: str
    eventId: str
    kind: str
    segmentId: Optional[str]
    topic: Optional[str]
    status: str
    correlationKey: Optional[str]
    total: int
    started: int
    skipped: int
    progress: Dict[str, int]
    failureReason: Optional[str]
    createdAt: str
    updatedAt: str
    completedAt: Optional[str]


class VerificationSend(TypedDict):
    channel: str
    messageId: str
    status: Optional[str]
    createdAt: str


class Verification(TypedDict):
    """A verification (docs/verify.md); a live one never carries its code."""
    id: str
    to: str
    country: Optional[str]
    channel: str
    channels: List[str]
    status: str
    codeLength: int
    expiresAt: str
    sendAttempts: int
    maxSendAttempts: int
    checkAttempts: int
    maxCheckAttempts: int
    sends: List[VerificationSend]
    createdAt: str
    updatedAt: str
    # Sandbox verifications only: the latest code, for test integrations (docs/sandbox.md).
    sandboxCode: NotRequired[str]


class VerificationCheck(TypedDict):
    id: str
    status: str
    valid: bool
    remainingAttempts: int
