"""The sync clients over httpx.MockTransport: requests on the wire, answers as models, tokens, retries, errors."""

from __future__ import annotations

import time
from decimal import Decimal
from typing import Any

import httpx
import pytest

from pix_account_service import (
    AdminClient,
    ApiError,
    AuthenticationError,
    DuplicateExternalIdError,
    InsufficientBalanceError,
    NetworkError,
    NotFoundError,
    PermissionDeniedError,
    PixClient,
    RetryPolicy,
    ServiceUnavailableError,
)
from pix_account_service.models import CreateCashOutResponse, GetBalanceResponse

from fake_service import CERT, Fake, answer

BALANCE = {"grossBalance": 100.5, "blockedBalance": 0, "netBalance": 100.5, "consultedAt": "2026-11-20T15:00:00.000Z"}
PAYOUT = {"transactionId": "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b", "externalId": "p-1", "status": "PENDING", "generateTime": "2026-11-20T15:00:00.000Z"}
RECIPIENT = {"key": "maria@example.com", "key_type": "EMAIL", "name": "Maria da Silva", "document": "11144477735"}
API_ERROR: dict[str, Any] = {"statusCode": 400, "timestamp": "t", "path": "/api/pix/cash-out", "method": "POST", "userMessage": "u", "errorId": "req-1", "error": "Bad Request"}


class Sleeps:
    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def client_for(fake: Fake, **options: object) -> tuple[PixClient, Sleeps]:
    client = PixClient("http://pix.test/", "client-1", "secret-1", certificate_pem=CERT, transport=httpx.MockTransport(fake.handle), **options)  # type: ignore[arg-type]
    sleeps = Sleeps()
    client.sleep = sleeps
    return client, sleeps


def test_a_call_sends_the_token_and_the_certificate_and_answers_a_model_with_decimal_money() -> None:
    fake = Fake()
    fake.on("GET /api/balance", answer(200, BALANCE))
    client, _ = client_for(fake)
    balance = client.balance.get()
    assert isinstance(balance, GetBalanceResponse)
    assert balance.net_balance == Decimal("100.5") and isinstance(balance.net_balance, Decimal)
    assert str(balance.net_balance) == "100.50"  # cents, as the API means them
    assert balance.blocked_balance == Decimal(0) and isinstance(balance.blocked_balance, Decimal)
    (token_request,) = fake.sent("POST /api/auth/token")
    assert Fake.json(token_request) == {"clientId": "client-1", "clientSecret": "secret-1"}
    assert Fake.certificate(token_request) == CERT
    (call,) = fake.sent("GET /api/balance")
    assert call.headers["authorization"] == "Bearer token-1"
    assert Fake.certificate(call) == CERT


def test_a_body_goes_out_in_the_api_s_names_with_exact_amounts_and_without_the_fields_not_given() -> None:
    fake = Fake()
    fake.on("POST /api/pix/cash-out", answer(201, PAYOUT))
    client, _ = client_for(fake)
    payout = client.cash_out.create(value=Decimal("10.50"), external_id="p-1", details=RECIPIENT, sandbox_scenario="delayed:5s")  # type: ignore[arg-type]
    assert payout == CreateCashOutResponse(transaction_id=PAYOUT["transactionId"], external_id="p-1", status="PENDING", generate_time=PAYOUT["generateTime"])
    (sent,) = fake.sent("POST /api/pix/cash-out")
    assert sent.content == b'{"value":10.50,"externalId":"p-1","details":{"key":"maria@example.com","keyType":"EMAIL","name":"Maria da Silva","document":"11144477735"}}'
    assert sent.headers["x-sandbox-scenario"] == "delayed:5s"
    assert sent.headers["content-type"] == "application/json"


def test_money_is_never_a_float() -> None:
    client, _ = client_for(Fake())
    with pytest.raises(TypeError, match="never a float"):
        client.cash_out.create(value=10.5, external_id="p-1", details=RECIPIENT)  # type: ignore[arg-type]


def test_the_token_is_reused_then_renewed_30_seconds_before_it_expires(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    fake = Fake(expires_in=300)
    fake.on("GET /api/balance", answer(200, BALANCE))
    client, _ = client_for(fake)
    client.balance.get()
    now[0] += 269
    client.balance.get()
    assert client.tokens_issued == 1
    now[0] += 2  # 271 s: less than 30 s left
    client.balance.get()
    assert client.tokens_issued == 2
    assert [r.headers["authorization"] for r in fake.sent("GET /api/balance")] == ["Bearer token-1", "Bearer token-1", "Bearer token-2"]


def test_a_token_refused_before_its_time_is_renewed_once_and_the_call_sent_again() -> None:
    fake = Fake()
    fake.on("POST /api/pix/cash-out", answer(401, {**API_ERROR, "statusCode": 401, "code": "UNAUTHORIZED", "message": "invalid token"}), answer(201, PAYOUT))
    client, _ = client_for(fake)
    assert client.cash_out.create(value=Decimal("1"), external_id="p-1", details=RECIPIENT).status == "PENDING"  # type: ignore[arg-type]
    assert [r.headers["authorization"] for r in fake.sent("POST /api/pix/cash-out")] == ["Bearer token-1", "Bearer token-2"]
    # Refused again with the new token: the caller gets the 401.
    fake.on("GET /api/balance", answer(401, {**API_ERROR, "statusCode": 401, "code": "UNAUTHORIZED", "message": "certificate mismatch"}))
    with pytest.raises(AuthenticationError):
        client.balance.get()
    assert len(fake.sent("GET /api/balance")) == 2


def test_a_get_is_retried_on_503_after_its_retry_after_and_on_a_network_failure() -> None:
    fake = Fake()
    fake.on(
        "GET /api/balance",
        answer(503, {**API_ERROR, "statusCode": 503, "code": "SERVICE_UNAVAILABLE", "message": "busy"}, {"retry-after": "2"}),
        httpx.ReadError("connection reset"),
        answer(429, {**API_ERROR, "statusCode": 429, "code": "TOO_MANY", "message": "slow down"}, {"retry-after": "120"}),
        answer(200, BALANCE),
    )
    client, sleeps = client_for(fake)
    assert client.balance.get().net_balance == Decimal("100.5")
    assert len(fake.sent("GET /api/balance")) == 4
    assert sleeps.waits[0] == 2.0
    assert 0 <= sleeps.waits[1] <= 0.5  # backoff with jitter after a network failure
    assert sleeps.waits[2] == 10.0  # a Retry-After is capped (RetryPolicy.max_delay)


def test_retries_stop_after_max_retries_with_the_last_answer_or_a_network_error() -> None:
    fake = Fake()
    fake.on("GET /api/balance", answer(503, {**API_ERROR, "statusCode": 503, "code": "SERVICE_UNAVAILABLE", "message": "busy"}, {"retry-after": "1"}))
    client, _ = client_for(fake, retry=RetryPolicy(max_retries=2))
    with pytest.raises(ServiceUnavailableError) as refused:
        client.balance.get()
    assert refused.value.retry_after == 1.0
    assert len(fake.sent("GET /api/balance")) == 3
    fake.routes["GET /api/pix/transaction/1"] = [httpx.ConnectError("refused")]
    with pytest.raises(NetworkError):
        client.transactions.get(1)
    assert len(fake.sent("GET /api/pix/transaction/1")) == 3


def test_a_post_with_an_external_id_is_retried_and_one_without_is_not() -> None:
    fake = Fake()
    busy = answer(503, {**API_ERROR, "statusCode": 503, "code": "SERVICE_UNAVAILABLE", "message": "busy"}, {"retry-after": "0"})
    fake.on("POST /api/pix/cash-out", busy, answer(201, PAYOUT))
    fake.on("POST /api/resend-webhook/abc", busy, answer(200, {"success": True, "message": "ok"}))
    client, _ = client_for(fake)
    client.cash_out.create(value=Decimal("1"), external_id="p-1", details=RECIPIENT)  # type: ignore[arg-type]
    assert len(fake.sent("POST /api/pix/cash-out")) == 2
    with pytest.raises(ServiceUnavailableError):
        client.webhooks.resend("abc")
    assert len(fake.sent("POST /api/resend-webhook/abc")) == 1
    # A refund without its optional externalId is not repeated either.
    fake.on("POST /api/pix/refund-in/9", busy)
    with pytest.raises(ServiceUnavailableError):
        client.refunds.create(9, refund_value=Decimal("1.00"))
    assert len(fake.sent("POST /api/pix/refund-in/9")) == 1


def test_after_a_lost_answer_a_duplicate_external_id_returns_the_transaction_the_first_attempt_made() -> None:
    fake = Fake()
    duplicate = {**API_ERROR, "code": "PIX_DUPLICATE_EXTERNAL_ID", "message": "externalId in use", "details": {"externalId": "p-1", "existingTransactionId": PAYOUT["transactionId"]}}
    fake.on("POST /api/pix/cash-out", httpx.ReadError("connection closed"), answer(400, duplicate))
    fake.on(f"GET /api/pix/transaction/{PAYOUT['transactionId']}", answer(200, {"id": "7", "externalId": "p-1", "status": "CONFIRMED", "createdAt": "2026-11-20T15:00:00.000Z"}))
    client, _ = client_for(fake)
    payout = client.cash_out.create(value=Decimal("1"), external_id="p-1", details=RECIPIENT)  # type: ignore[arg-type]
    assert payout.transaction_id == PAYOUT["transactionId"] and payout.status == "CONFIRMED"
    assert payout.generate_time == "2026-11-20T15:00:00.000Z"
    # Without a lost answer, a duplicate is the caller's mistake: it is raised.
    fake.routes["POST /api/pix/cash-out"] = [answer(400, duplicate)]
    with pytest.raises(DuplicateExternalIdError) as refused:
        client.cash_out.create(value=Decimal("1"), external_id="p-1", details=RECIPIENT)  # type: ignore[arg-type]
    assert refused.value.details["existingTransactionId"] == PAYOUT["transactionId"]


def test_a_route_that_takes_an_idempotency_key_gets_one_kept_across_retries() -> None:
    fake = Fake()
    transfer = {"endToEndId": "E1", "eventDate": "t", "id": "d-1", "payment": {"currency": "BRL", "amount": "10.00"}, "type": "TRANSFER"}
    fake.on("POST /dict/pix", httpx.ReadError("reset"), answer(201, transfer))
    client, _ = client_for(fake)
    made = client.dict_pix.create(pix_key="maria@example.com", payment={"currency": "BRL", "amount": Decimal("10.00")})
    assert made.payment.amount == Decimal("10.00")
    keys = [r.headers["x-idempotency-key"] for r in fake.sent("POST /dict/pix")]
    assert len(keys) == 2 and keys[0] == keys[1] and len(keys[0]) == 36
    client.dict_pix.create(pix_key="maria@example.com", payment={"currency": "BRL", "amount": 10}, idempotency_key="my-key")
    assert fake.sent("POST /dict/pix")[-1].headers["x-idempotency-key"] == "my-key"
    assert Fake.json(fake.sent("POST /dict/pix")[-1]) == {"pixKey": "maria@example.com", "payment": {"currency": "BRL", "amount": 10}}


@pytest.mark.parametrize(
    ("status", "body", "cls", "code"),
    [
        (400, {**API_ERROR, "code": "PIX_INSUFFICIENT_BALANCE", "message": "Saldo insuficiente"}, InsufficientBalanceError, "PIX_INSUFFICIENT_BALANCE"),
        (400, {**API_ERROR, "code": "HTTP_ERROR", "message": ["value is required", "externalId is required"]}, ApiError, "HTTP_ERROR"),
        (404, {**API_ERROR, "statusCode": 404, "code": "NOT_FOUND", "message": "no such transaction"}, NotFoundError, "NOT_FOUND"),
        (401, {"error": "invalid_client", "error_description": "bad secret", "error_code": "INVALID_CLIENT"}, AuthenticationError, "INVALID_CLIENT"),
        (403, {"statusCode": 403, "message": "forbidden", "error": "Forbidden"}, PermissionDeniedError, "HTTP_403"),
    ],
)
def test_a_refusal_is_its_exception_with_status_code_message_and_request_id(status: int, body: dict[str, object], cls: type[ApiError], code: str) -> None:
    fake = Fake()
    fake.on("GET /api/pix/transaction/5", answer(status, body, {"x-request-id": "req-1"}))
    client, _ = client_for(fake)
    with pytest.raises(cls) as refused:
        client.transactions.get(5)
    error = refused.value
    assert type(error) is cls or cls is ApiError
    assert (error.status, error.code, error.request_id) == (status, code, "req-1")
    assert error.message and str(error).startswith(f"{status} {code}")
    if body.get("message") == ["value is required", "externalId is required"]:
        assert error.message == "value is required; externalId is required"


def test_the_list_iterator_follows_the_pages_until_the_last() -> None:
    fake = Fake()

    def page(request: httpx.Request) -> httpx.Response:
        number = int(request.url.params.get("page", "1"))
        data = [{"transactionId": f"t-{number}-{i}", "externalId": None, "status": "CONFIRMED", "operationType": "PAYMENT", "movementType": "CREDIT", "originalAmount": 1.25, "feeAmount": 0, "finalAmount": 1.25, "endToEndId": None, "createdAt": "t", "processedAt": None, "counterpart": {"name": None, "document": None, "bank": {"bankISPB": "1", "bankName": None, "bankCode": None, "accountBranch": None, "accountNumber": None}}} for i in range(2 if number < 3 else 1)]
        return answer(200, {"data": data, "metadata": {"page": number, "size": 2, "total": 5, "totalPages": 3, "hasNext": number < 3, "hasPrevious": number > 1}})

    fake.on("GET /api/transactions", page)
    client, _ = client_for(fake)
    items = list(client.transactions.list(size=2, status="CONFIRMED"))
    assert [tx.transaction_id for tx in items] == ["t-1-0", "t-1-1", "t-2-0", "t-2-1", "t-3-0"]
    assert items[0].counterpart.bank.bank_ispb == "1"
    assert sum((tx.final_amount for tx in items), Decimal(0)) == Decimal("6.25")
    sent = fake.sent("GET /api/transactions")
    assert [r.url.params.get("page") for r in sent] == [None, "2", "3"]
    assert all(r.url.params["size"] == "2" and r.url.params["status"] == "CONFIRMED" for r in sent)


def test_the_admin_client_sends_the_admin_token_and_an_account_client_its_own_on_shared_sandbox_routes() -> None:
    fake = Fake()
    pay = {"id": 1, "transactionId": "t", "externalId": None, "type": "PAYMENT", "status": "CONFIRMED", "movementType": "CREDIT", "originalAmount": 5, "feeAmount": 0, "finalAmount": 5, "endToEndId": None, "counterpart": {}, "createdAt": "t", "processedAt": None}
    fake.on("POST /sandbox/charges/c-1/pay", answer(200, pay))
    fake.on("GET /admin/accounts/7/webhook-secret", answer(200, {"secret": "whsec_abc"}))
    admin = AdminClient("http://pix.test", "admin-token-1", transport=httpx.MockTransport(fake.handle))
    assert admin.webhook_secret.get(7).secret == "whsec_abc"
    admin.sandbox.pay_charge("c-1", account_id=7)
    client, _ = client_for(fake)
    client.sandbox.pay_charge("c-1")
    auth = [r.headers["authorization"] for r in fake.requests if r.url.path != "/api/auth/token"]
    assert auth == ["Bearer admin-token-1", "Bearer admin-token-1", "Bearer token-1"]
    assert "x-ssl-client-cert" not in fake.sent("GET /admin/accounts/7/webhook-secret")[0].headers
    assert Fake.json(fake.sent("POST /sandbox/charges/c-1/pay")[0]) == {"accountId": 7}
    assert Fake.json(fake.sent("POST /sandbox/charges/c-1/pay")[1]) == {}


def test_fields_the_model_does_not_know_yet_are_ignored() -> None:
    fake = Fake()
    fake.on("GET /api/balance", answer(200, {**BALANCE, "reservedBalance": 3}))
    client, _ = client_for(fake)
    assert client.balance.get().net_balance == Decimal("100.5")


def test_a_text_money_field_goes_out_with_two_decimals() -> None:
    fake = Fake()
    devolucao = {"id": "D1", "rtrId": "D123", "valor": "7.50", "natureza": "ORIGINAL", "horario": {"solicitacao": "t"}, "status": "EM_PROCESSAMENTO"}
    fake.on("PUT /pix/E123/devolucao/D1", answer(201, devolucao))
    client, _ = client_for(fake)
    made = client.devolucao.put("E123", "D1", valor=Decimal("7.5"))
    assert made.valor == Decimal("7.50") and made.natureza == "ORIGINAL"
    assert Fake.json(fake.sent("PUT /pix/E123/devolucao/D1")[0]) == {"valor": "7.50"}
