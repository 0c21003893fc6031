"""Money through the SDK against the live sandbox: token, cash-out, charge paid, refund, errors, paging."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest

from pix_account_service import InsufficientBalanceError, PixClient
from pix_account_service.models import CreateCashOutBodyDetails, GetTransactionResponse

from sandbox_kit import Sandbox, cpf, until

RECIPIENT: CreateCashOutBodyDetails = {"key": "maria.silva@example.com", "key_type": "EMAIL", "name": "Maria da Silva", "document": cpf(111444777)}


def settled(client: PixClient, transaction_id: str) -> GetTransactionResponse:
    seen: list[GetTransactionResponse] = []

    def final() -> bool:
        seen.append(client.transactions.get(transaction_id))
        return seen[-1].status != "PENDING"

    until(final, 60, f"transaction {transaction_id} stayed PENDING")
    return seen[-1]


def test_a_token_from_the_credentials_and_certificate_is_reused_until_it_nears_expiry(sandbox: Sandbox) -> None:
    account = sandbox.account()
    with account.client(sandbox.base_url) as client:
        token = client.access_token()
        assert token.count(".") == 2  # a JWT
        assert client.balance.get().net_balance == Decimal("0")
        assert client.balance.get().gross_balance == Decimal("0")
        assert client.access_token() == token
        assert client.tokens_issued == 1


def test_a_cash_out_reaches_confirmed_and_moves_its_amount_in_decimal(sandbox: Sandbox) -> None:
    account = sandbox.account(funds="100.00")
    with account.client(sandbox.base_url) as client:
        assert client.balance.get().net_balance == Decimal("100.00")
        external_id = f"py-{uuid.uuid4()}"
        payout = client.cash_out.create(value=Decimal("10.35"), external_id=external_id, description="pagamento", details=RECIPIENT)
        assert payout.status == "PENDING"
        assert payout.external_id == external_id
        final = settled(client, payout.transaction_id)
        assert final.status == "CONFIRMED"
        assert final.original_amount == Decimal("10.35")
        assert isinstance(final.original_amount, Decimal)
        balance = client.balance.get()
        assert balance.net_balance == Decimal("100.00") - final.final_amount
        assert balance.net_balance < Decimal("89.66")


def test_a_charge_paid_through_the_sandbox_then_refunded(sandbox: Sandbox) -> None:
    account = sandbox.account()
    with account.client(sandbox.base_url) as client:
        charge = client.charges.create(
            transaction={"value": Decimal("150.00"), "description": "Pedido 1042", "external_id": f"order-{uuid.uuid4()}"},
            payer={"full_name": "Maria da Silva", "document": cpf(111444777)},
            sandbox_scenario="pending",
        )
        assert charge.status == "PENDING"
        assert charge.pix_code.startswith("000201")
        client.sandbox.pay_charge(charge.transaction_id)
        paid = settled(client, charge.transaction_id)
        assert paid.status == "CONFIRMED"
        assert client.balance.get().net_balance == paid.final_amount

        refund = client.refunds.create(charge.transaction_id, refund_value=Decimal("40.00"), reason="devolução parcial")
        assert refund.refund_value == Decimal("40.00")
        refunded = settled(client, refund.transaction_id)
        assert refunded.status == "CONFIRMED"
        assert client.balance.get().net_balance == paid.final_amount - refunded.final_amount


def test_a_refusal_is_its_typed_exception_with_status_code_and_request_id(sandbox: Sandbox) -> None:
    account = sandbox.account(funds="5.00")
    with account.client(sandbox.base_url) as client:
        with pytest.raises(InsufficientBalanceError) as refused:
            client.cash_out.create(value=Decimal("500.00"), external_id=f"py-{uuid.uuid4()}", details=RECIPIENT)
        error = refused.value
        assert error.status == 400
        assert error.code == "PIX_INSUFFICIENT_BALANCE"
        assert error.request_id and error.request_id == error.body["errorId"]
        assert client.balance.get().net_balance == Decimal("5.00")
