"""The exceptions of the SDK: one class per HTTP status family, a few per business code."""

from __future__ import annotations

from typing import Any, Mapping


class PixError(Exception):
    """Base class of every error this package raises."""


class ApiError(PixError):
    """The service refused a request.

    ``code`` is the business code of the ``/api`` envelope (``PIX_INSUFFICIENT_BALANCE``, ...), the
    OAuth ``error_code``/``error``, or ``HTTP_<status>`` for an envelope that has none; ``request_id``
    is the answer's ``X-Request-Id`` (the ``errorId`` of the ``/api`` envelope): quote it to support.
    ``body`` is the envelope as the service sent it.
    """

    def __init__(self, status: int, code: str, message: str, request_id: str | None, body: Any, retry_after: float | None = None) -> None:
        super().__init__(f"{status} {code}: {message}" + (f" (request id {request_id})" if request_id else ""))
        self.status = status
        self.code = code
        self.message = message
        self.request_id = request_id
        self.body = body
        #: Seconds the service asked to wait (``Retry-After``), on 429 and 503.
        self.retry_after = retry_after

    @property
    def details(self) -> Mapping[str, Any]:
        """The envelope's ``details`` (``existingTransactionId`` of a duplicate, ...), empty when there are none."""
        details = self.body.get("details") if isinstance(self.body, dict) else None
        return details if isinstance(details, dict) else {}


class BadRequestError(ApiError):
    """400: invalid input (the message names each field) or a business refusal."""


class InsufficientBalanceError(BadRequestError):
    """400 ``PIX_INSUFFICIENT_BALANCE``: the available balance does not cover the amount and its fee."""


class DuplicateExternalIdError(ApiError):
    """The ``externalId`` was used already (``details['existingTransactionId']`` names that transaction)."""


class AuthenticationError(ApiError):
    """401: missing, wrong or expired credentials or token, or a token bound to another certificate."""


class PermissionDeniedError(ApiError):
    """403: the token lacks the scope, or the account may not do this."""


class AccountSuspendedError(PermissionDeniedError):
    """403 ``ACCOUNT_SUSPENDED``: an operator suspended the account; money cannot move."""


class NotFoundError(ApiError):
    """404: no such resource for this account (another account's id is a 404 too)."""


class ConflictError(ApiError):
    """409: the resource is in a state that refuses this (already paid, id in use, ...)."""


class UnprocessableEntityError(ApiError):
    """422: understood, but refused by a rule of the compatible family."""


class RateLimitError(ApiError):
    """429: too many requests; ``retry_after`` says when to try again."""


class ServerError(ApiError):
    """5xx: the service failed; ``ServiceUnavailableError`` (503) is worth a retry later."""


class ServiceUnavailableError(ServerError):
    """503: a dependency is lost or slow; ``retry_after`` says when to try again."""


class NetworkError(PixError):
    """The service could not be reached, or the connection broke, after the retries allowed."""


class WebhookVerificationError(PixError):
    """A webhook's signature or timestamp does not prove it came from the service, now."""


_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
    503: ServiceUnavailableError,
}
_BY_CODE: dict[str, type[ApiError]] = {
    "PIX_INSUFFICIENT_BALANCE": InsufficientBalanceError,
    "PIX_DUPLICATE_EXTERNAL_ID": DuplicateExternalIdError,
    "PIX_QR_CODE_EXTERNAL_ID_IN_USE": DuplicateExternalIdError,
    "ACCOUNT_SUSPENDED": AccountSuspendedError,
}


def _text(value: Any) -> str | None:
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return value if isinstance(value, str) else None


def error_from_answer(status: int, body: Any, request_id: str | None, retry_after: float | None = None) -> ApiError:
    """The exception for a refused request, from its status and envelope, whichever family's it is."""
    b: Mapping[str, Any] = body if isinstance(body, dict) else {}
    if isinstance(b.get("code"), str):
        code = b["code"]
        message = _text(b.get("message")) or f"HTTP {status}"
        error_code = b.get("errorCode")
        cls = _BY_CODE.get(code) or (_BY_CODE.get(error_code) if isinstance(error_code, str) else None)
    elif isinstance(b.get("error"), str) and "error_description" in b:
        code = b["error_code"] if isinstance(b.get("error_code"), str) else b["error"]
        message = _text(b.get("error_description")) or b["error"]
        cls = _BY_CODE.get(code)
    else:
        code = f"HTTP_{status}"
        message = _text(b.get("message")) or _text(b.get("detail")) or _text(b.get("title")) or f"HTTP {status}"
        cls = None
    if cls is None or (cls is InsufficientBalanceError and status != 400):
        cls = _BY_STATUS.get(status) or (ServerError if status >= 500 else ApiError)
    return cls(status, code, message, request_id, body, retry_after)
