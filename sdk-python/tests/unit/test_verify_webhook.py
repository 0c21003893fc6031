"""verify_webhook: Standard Webhooks signatures, secret rotation, timestamp tolerance, typed events."""

from __future__ import annotations

import json
import time
from decimal import Decimal

import pytest

from pix_account_service import WebhookVerificationError, sign_webhook, verify_webhook
from pix_account_service.models import ReceiveEvent, TransferEvent

SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
OTHER = "whsec_QUJDREVGR0hJSktMTU5PUFFSU1RVVldY"
TRANSFER = {"type": "TRANSFER", "data": {"id": 3, "txId": None, "pixKey": "k", "status": "LIQUIDATED", "payment": {"amount": "10.50", "currency": "BRL"}, "endToEndId": "E1", "creditDebitType": "DEBIT", "idempotencyKey": "i", "creditorAccount": {"name": "n", "document": "d", "ispb": "1"}, "remittanceInformation": None}}
RECEIVE = {"type": "RECEIVE", "data": {"id": 4, "txId": "tx", "status": "LIQUIDATED", "payment": {"amount": "2.00", "currency": "BRL"}, "endToEndId": "E2", "debtorAccount": {"name": "n", "document": "d"}}}


def delivery(body: object, secrets: list[str], at: float | None = None) -> tuple[bytes, dict[str, str]]:
    payload = json.dumps(body).encode()
    stamp = int(time.time() if at is None else at)
    signatures = " ".join(sign_webhook(payload, "msg_1", stamp, s) for s in secrets)
    return payload, {"webhook-id": "msg_1", "webhook-timestamp": str(stamp), "webhook-signature": signatures}


def test_a_signed_delivery_is_verified_and_read_as_its_event_model() -> None:
    payload, headers = delivery(TRANSFER, [SECRET])
    event = verify_webhook(payload, headers, SECRET)
    assert isinstance(event, TransferEvent)
    assert event.data.payment.amount == Decimal("10.50")
    assert event.data.creditor_account.ispb == "1"
    received = verify_webhook(*delivery(RECEIVE, [SECRET]), SECRET)
    assert isinstance(received, ReceiveEvent) and received.data.tx_id == "tx"


def test_any_of_several_signatures_matches_during_a_rotation_and_a_list_of_secrets_is_accepted() -> None:
    payload, headers = delivery(RECEIVE, [OTHER, SECRET])
    assert verify_webhook(payload, headers, SECRET) == verify_webhook(payload, headers, OTHER)
    payload, headers = delivery(RECEIVE, [SECRET])
    assert verify_webhook(payload, headers, [OTHER, SECRET]) is not None
    with pytest.raises(WebhookVerificationError, match="no signature"):
        verify_webhook(payload, headers, OTHER)


def test_a_changed_body_a_wrong_id_or_a_stale_timestamp_is_refused() -> None:
    payload, headers = delivery(RECEIVE, [SECRET])
    with pytest.raises(WebhookVerificationError):
        verify_webhook(payload.replace(b"2.00", b"9.00"), headers, SECRET)
    with pytest.raises(WebhookVerificationError):
        verify_webhook(payload, {**headers, "webhook-id": "msg_2"}, SECRET)
    old_payload, old_headers = delivery(RECEIVE, [SECRET], at=time.time() - 400)
    with pytest.raises(WebhookVerificationError, match="too old"):
        verify_webhook(old_payload, old_headers, SECRET)
    assert verify_webhook(old_payload, old_headers, SECRET, tolerance=600) is not None
    with pytest.raises(WebhookVerificationError, match="not a number"):
        verify_webhook(payload, {**headers, "webhook-timestamp": "yesterday"}, SECRET)
    with pytest.raises(WebhookVerificationError, match="whsec_"):
        verify_webhook(payload, headers, "whsec_not base64!")


def test_headers_may_be_pairs_in_any_case() -> None:
    payload, headers = delivery(RECEIVE, [SECRET])
    pairs = [(k.title(), v) for k, v in headers.items()]
    assert verify_webhook(payload.decode(), pairs, SECRET) == verify_webhook(payload, headers, SECRET)
