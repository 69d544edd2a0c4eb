from __future__ import annotations

from typing import Any, Dict, List, Optional


class NkraError(Exception):
    """The one error type of the client.

    An API error carries the HTTP ``status`` and the spec's error ``code`` (VALIDATION_ERROR,
    INSUFFICIENT_BALANCE ...). A failure before any answer has ``status`` 0 and code NETWORK_ERROR
    or TIMEOUT; input refused by the client itself is VALIDATION_ERROR with status 0.
    A fraud-REJECTED send is not an error: it is a delivery log with status REJECTED.
    """

    def __init__(self, code: str, message: str, status: int = 0, details: Optional[Dict[str, Any]] = None,
                 request_id: Optional[str] = None, retry_after: Optional[float] = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.details: Dict[str, Any] = details or {}
        self.request_id = request_id
        #: The answer's Retry-After in seconds (429 VERIFY_RATE_LIMITED, VERIFY_RESEND_COOLDOWN, 503 ...), None when absent.
        self.retry_after = retry_after

    @property
    def field_errors(self) -> Dict[str, List[str]]:
        return self.details.get("fieldErrors") or {}

    @property
    def form_errors(self) -> List[str]:
        return self.details.get("formErrors") or []

    def __repr__(self) -> str:
        return f"NkraError(code={self.code!r}, status={self.status}, message={self.message!r})"

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"
