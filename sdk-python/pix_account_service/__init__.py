"""A typed Python client for pix-account-service (generated from its OpenAPI document).

    from pix_account_service import PixClient
    client = PixClient("http://127.0.0.1:3000", client_id, client_secret, certificate_pem=pem)
    print(client.balance.get().net_balance)
"""

from . import models
from ._base import RetryPolicy
from ._clients import AdminClient, AsyncPixClient, PixClient
from ._core import AsyncPager, ServerSentEvent, SyncPager
from .errors import (
    AccountSuspendedError,
    ApiError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    DuplicateExternalIdError,
    InsufficientBalanceError,
    NetworkError,
    NotFoundError,
    PermissionDeniedError,
    PixError,
    RateLimitError,
    ServerError,
    ServiceUnavailableError,
    UnprocessableEntityError,
    WebhookVerificationError,
)
from .webhooks import sign_webhook, verify_webhook

__version__ = "0.1.0"

__all__ = [
    "AccountSuspendedError",
    "AdminClient",
    "ApiError",
    "AsyncPager",
    "AsyncPixClient",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "DuplicateExternalIdError",
    "InsufficientBalanceError",
    "NetworkError",
    "NotFoundError",
    "PermissionDeniedError",
    "PixClient",
    "PixError",
    "RateLimitError",
    "RetryPolicy",
    "ServerError",
    "ServerSentEvent",
    "ServiceUnavailableError",
    "SyncPager",
    "UnprocessableEntityError",
    "WebhookVerificationError",
    "models",
    "sign_webhook",
    "verify_webhook",
]
