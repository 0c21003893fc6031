"""AsyncPixClient: the same operations awaited, pages as an async iterator, one token for concurrent calls."""

from __future__ import annotations

import asyncio
from decimal import Decimal

import httpx

from pix_account_service import AsyncPixClient, InsufficientBalanceError

from fake_service import CERT, Fake, answer
from test_client import API_ERROR, BALANCE, PAYOUT, RECIPIENT


def make(fake: Fake) -> AsyncPixClient:
    client = AsyncPixClient("http://pix.test", "client-1", "secret-1", certificate_pem=CERT, transport=httpx.MockTransport(fake.handle))

    async def no_wait(seconds: float) -> None:
        return None

    client.sleep = no_wait
    return client


def test_concurrent_calls_share_one_token_and_answer_models() -> None:
    fake = Fake()
    fake.on("GET /api/balance", answer(200, BALANCE))

    async def run() -> list[Decimal]:
        async with make(fake) as client:
            balances = await asyncio.gather(*(client.balance.get() for _ in range(5)))
            assert client.tokens_issued == 1
            return [b.net_balance for b in balances]

    assert asyncio.run(run()) == [Decimal("100.5")] * 5
    assert len(fake.sent("POST /api/auth/token")) == 1
    assert {r.headers["authorization"] for r in fake.sent("GET /api/balance")} == {"Bearer token-1"}


def test_retries_errors_and_pages_work_the_same_way() -> None:
    fake = Fake()
    busy = answer(503, {**API_ERROR, "statusCode": 503, "code": "SERVICE_UNAVAILABLE", "message": "busy"}, {"retry-after": "1"})
    fake.on("POST /api/pix/cash-out", busy, answer(201, PAYOUT), answer(400, {**API_ERROR, "code": "PIX_INSUFFICIENT_BALANCE", "message": "Saldo insuficiente"}))

    def page(request: httpx.Request) -> httpx.Response:
        number = int(request.url.params.get("page", "1"))
        data = [{"id": n, "endToEnd": f"E{n}", "status": "OPEN", "reason": "REFUND_REQUEST", "cause": None, "description": None, "analysisResult": None, "analysisDetails": None, "requestingBank": {"ispb": "1", "name": "b"}, "contestedBank": {"ispb": "2", "name": "c"}, "transaction": None, "isReconciled": False, "originalTransactionId": None, "createdAt": "t", "updatedAt": "t"} for n in ([1, 2] if number == 1 else [3])]
        return answer(200, {"data": data, "metadata": {"page": number, "pageSize": 2, "total": 3, "totalPages": 2}})

    fake.on("GET /api/med", page)

    async def run() -> None:
        async with make(fake) as client:
            made = await client.cash_out.create(value=Decimal("1.00"), external_id="p-1", details=RECIPIENT)  # type: ignore[arg-type]
            assert made.status == "PENDING"
            try:
                await client.cash_out.create(value=Decimal("1.00"), external_id="p-2", details=RECIPIENT)  # type: ignore[arg-type]
                raise AssertionError("expected a refusal")
            except InsufficientBalanceError as refused:
                assert refused.code == "PIX_INSUFFICIENT_BALANCE"
            ids = [med.id async for med in client.med.list(page_size=2)]
            assert ids == [1, 2, 3]

    asyncio.run(run())
    assert len(fake.sent("POST /api/pix/cash-out")) == 3
    assert [r.url.params.get("page") for r in fake.sent("GET /api/med")] == [None, "2"]
