"""Webhook verification (hand-written): Standard Webhooks, as the service signs its deliveries.

``webhook-signature`` holds one or more ``v1,<base64>`` signatures separated by spaces (during a
secret rotation the service signs with the new secret and the previous one); each is the
HMAC-SHA256 of ``{webhook-id}.{webhook-timestamp}.{body}`` keyed by the account's ``whsec_`` secret.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import time
from collections.abc import Iterable, Mapping
from typing import Any

from ._core import decode_as, parse_json
from .errors import WebhookVerificationError
from .models import WebhookEvent

#: How far ``webhook-timestamp`` may be from now, either way (Standard Webhooks' 5 minutes): an older
#: delivery replayed by someone who captured it is refused.
DEFAULT_TOLERANCE_SECONDS = 300

Headers = Mapping[str, str] | Iterable[tuple[str, str]]


def _header(headers: Headers, name: str) -> str:
    items = headers.items() if isinstance(headers, Mapping) else headers
    for key, value in items:
        if key.lower() == name:
            return value
    raise WebhookVerificationError(f"missing header {name}")


def _key(secret: str) -> bytes:
    raw = secret[len("whsec_"):] if secret.startswith("whsec_") else secret
    try:
        return base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError) as error:
        raise WebhookVerificationError("the secret is not a whsec_ (base64) secret") from error


def sign_webhook(payload: str | bytes, msg_id: str, timestamp: int, secret: str) -> str:
    """The ``v1,`` signature of a delivery (the service's side; tests and local tools use it)."""
    body = payload.encode("utf-8") if isinstance(payload, str) else payload
    content = f"{msg_id}.{timestamp}.".encode("utf-8") + body
    return "v1," + base64.b64encode(hmac.new(_key(secret), content, hashlib.sha256).digest()).decode("ascii")


def verify_webhook(
    payload: str | bytes,
    headers: Headers,
    secret: str | Iterable[str],
    *,
    tolerance: int = DEFAULT_TOLERANCE_SECONDS,
    now: float | None = None,
) -> WebhookEvent:
    """The delivered event, once its signature is proven and its timestamp is recent; else WebhookVerificationError.

    Pass the raw body exactly as received (bytes or str), never a re-serialised object, and the request's
    headers (any mapping, or (name, value) pairs). ``secret`` is the account's ``whsec_`` secret, or
    several (the new and the previous one while you rotate). The event is a model of the document's
    ``webhooks`` (snake_case fields, amounts as ``Decimal``); a kind of event this version of the SDK does
    not know is returned as the parsed JSON object.
    """
    msg_id = _header(headers, "webhook-id")
    stamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    try:
        timestamp = int(stamp)
    except ValueError as error:
        raise WebhookVerificationError("webhook-timestamp is not a number of seconds") from error
    current = time.time() if now is None else now
    if timestamp < current - tolerance:
        raise WebhookVerificationError("the delivery is too old (webhook-timestamp)")
    if timestamp > current + tolerance:
        raise WebhookVerificationError("the delivery is dated in the future (webhook-timestamp)")
    secrets = [secret] if isinstance(secret, str) else list(secret)
    expected = {sign_webhook(payload, msg_id, timestamp, s).split(",", 1)[1] for s in secrets}
    offered = [part.split(",", 1)[1] for part in signatures.split() if part.startswith("v1,")]
    if not any(hmac.compare_digest(sig, want) for sig in offered for want in expected):
        raise WebhookVerificationError("no signature matches the secret")
    try:
        body: Any = parse_json(payload)
    except ValueError as error:
        raise WebhookVerificationError("the body is not JSON") from error
    event: WebhookEvent = decode_as(body, WebhookEvent)
    return event
