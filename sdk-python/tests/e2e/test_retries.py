"""A call whose answer is lost is sent again, and money moves once."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest

from pix_account_service import NetworkError, RetryPolicy

from drop_proxy import DropProxy
from sandbox_kit import Sandbox, cpf


def test_a_cash_out_whose_answer_is_lost_is_retried_and_pays_once(sandbox: Sandbox) -> None:
    account = sandbox.account(funds="100.00")
    proxy = DropProxy(sandbox.port)
    try:
        with account.client(proxy.url, retry=RetryPolicy(base_delay=0.05)) as client:
            assert client.balance.get().net_balance == Decimal("100.00")
            external_id = f"py-retry-{uuid.uuid4()}"
            proxy.drop_answer_to(b"POST /api/pix/cash-out ")
            payout = client.cash_out.create(
                value=Decimal("25.00"), external_id=external_id,
                details={"key": "maria@example.com", "key_type": "EMAIL", "name": "Maria da Silva", "document": cpf(111444777)},
            )
            assert proxy.dropped == 1
            # Sent twice: the first reached the service (its answer was lost), the second found the externalId taken.
            assert sum(1 for line in proxy.requests if line.startswith(b"POST /api/pix/cash-out ")) == 2
            assert payout.external_id == external_id
            made = [tx for tx in client.transactions.list(external_id=external_id)]
            assert [tx.transaction_id for tx in made] == [payout.transaction_id]
            tx = client.transactions.get(payout.transaction_id)
            assert client.balance.get().net_balance == Decimal("100.00") - tx.final_amount
            assert tx.original_amount == Decimal("25.00")
    finally:
        proxy.close()


def test_a_post_that_is_not_safe_to_repeat_is_not_retried(sandbox: Sandbox) -> None:
    """A webhook resend carries no externalId: a lost answer is an error for the caller, not a second send."""
    account = sandbox.account()
    proxy = DropProxy(sandbox.port)
    try:
        with account.client(proxy.url, retry=RetryPolicy(base_delay=0.05)) as client:
            client.balance.get()
            proxy.drop_answer_to(b"POST /api/resend-webhook/")
            with pytest.raises(NetworkError):
                client.webhooks.resend(str(uuid.uuid4()))
            assert sum(1 for line in proxy.requests if line.startswith(b"POST /api/resend-webhook/")) == 1
    finally:
        proxy.close()
