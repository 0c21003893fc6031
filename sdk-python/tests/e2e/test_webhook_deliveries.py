"""Deliveries the service really sends, received by a local HTTP server and verified with verify_webhook."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from pix_account_service import WebhookVerificationError, verify_webhook
from pix_account_service.models import TransactionEvent

from sandbox_kit import Sandbox, cpf, until


class Receiver:
    """A webhook URL: records each delivery's raw body and headers, answers 200."""

    def __init__(self) -> None:
        self.deliveries: list[tuple[bytes, dict[str, str]]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                receiver.deliveries.append((body, {k: v for k, v in self.headers.items()}))
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/pix/webhooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def next(self, after: int) -> tuple[bytes, dict[str, str]]:
        until(lambda: len(self.deliveries) > after, 60, "no webhook delivery arrived")
        return self.deliveries[after]


@pytest.fixture()
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.server.shutdown()
    r.server.server_close()


def test_a_cash_out_delivery_is_verified_and_parsed_and_a_forgery_is_refused(sandbox: Sandbox, receiver: Receiver) -> None:
    account = sandbox.account(funds="50.00")
    sandbox.admin.account_webhooks.register(account.id, event_type="cash_out", url=receiver.url)
    secret = sandbox.admin.webhook_secret.get(account.id).secret
    assert secret.startswith("whsec_")
    with account.client(sandbox.base_url) as client:
        payout = client.cash_out.create(
            value=Decimal("12.34"), external_id=f"py-hook-{uuid.uuid4()}",
            details={"key": "joao@example.com", "key_type": "EMAIL", "name": "João Souza", "document": cpf(529982247)},
        )
    body, headers = receiver.next(0)

    event = verify_webhook(body, headers, secret)
    assert isinstance(event, TransactionEvent)
    assert event.event == "CashOut"
    assert event.transaction_id == payout.transaction_id
    assert event.original_amount == Decimal("12.34")
    assert event.movement_type == "DEBIT"
    # The same delivery as text, and with the headers in another case, is the same event.
    assert verify_webhook(body.decode(), {k.upper(): v for k, v in headers.items()}, secret) == event

    with pytest.raises(WebhookVerificationError, match="signature"):
        verify_webhook(body.replace(b"12.34", b"99.34"), headers, secret)
    with pytest.raises(WebhookVerificationError, match="signature"):
        verify_webhook(body, headers, "whsec_" + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldY")
    # Relative to the delivery's own stamp, not to the clock: the receiver may have held it for seconds.
    stamped = int({k.lower(): v for k, v in headers.items()}["webhook-timestamp"])
    assert verify_webhook(body, headers, secret, now=stamped + 300) == event
    with pytest.raises(WebhookVerificationError, match="too old"):
        verify_webhook(body, headers, secret, now=stamped + 301)
    assert verify_webhook(body, headers, secret, now=stamped - 300) == event
    with pytest.raises(WebhookVerificationError, match="future"):
        verify_webhook(body, headers, secret, now=stamped - 301)
    with pytest.raises(WebhookVerificationError, match="missing header webhook-signature"):
        verify_webhook(body, {k: v for k, v in headers.items() if k.lower() != "webhook-signature"}, secret)


def test_during_a_secret_rotation_a_delivery_carries_two_signatures_and_either_secret_verifies_it(sandbox: Sandbox, receiver: Receiver) -> None:
    account = sandbox.account()
    sandbox.admin.account_webhooks.register(account.id, event_type="cash_in", url=receiver.url)
    old = sandbox.admin.webhook_secret.get(account.id).secret
    rotated = sandbox.admin.webhook_secret.rotate(account.id)
    assert rotated.secret != old and rotated.previous_secret_valid_until is not None

    sandbox.admin.test_webhook.send(account.id, event="cash_in")
    body, headers = receiver.next(0)
    signatures = headers["webhook-signature"].split()
    assert len(signatures) == 2 and all(s.startswith("v1,") for s in signatures)

    assert verify_webhook(body, headers, rotated.secret) == verify_webhook(body, headers, old)
    assert verify_webhook(body, headers, ["whsec_QUJDREVGR0hJSktMTU5PUFFSU1RVVldY", rotated.secret]) is not None
    with pytest.raises(WebhookVerificationError):
        verify_webhook(body, headers, "whsec_QUJDREVGR0hJSktMTU5PUFFSU1RVVldY")
