"""A text/event-stream operation read as ServerSentEvents (the events API's stream: `events.stream`)."""

from __future__ import annotations

import asyncio
from decimal import Decimal

import httpx
import pytest

from pix_account_service import AsyncPixClient, NotFoundError, PixClient, ServerSentEvent
from pix_account_service._core import Operation

from fake_service import CERT, Fake, answer

STREAM = Operation(method="GET", path="/api/events/stream", security=("bearer",), result="events")
BODY = (
    b": heartbeat\n\n"
    b"id: 41\nevent: cash_out\ndata: {\"event\": \"CashOut\", \"finalAmount\": 10.5}\n\n"
    b"id: 42\nevent: cash_in\ndata: {\"a\":\ndata: 1}\n\n"
    b": heartbeat\n\n"
)


def stream_route(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, content=BODY, headers={"content-type": "text/event-stream"})


def test_events_come_with_their_id_name_and_data_and_heartbeats_are_skipped() -> None:
    fake = Fake()
    fake.on("GET /api/events/stream", stream_route)
    client = PixClient("http://pix.test", "id", "secret", certificate_pem=CERT, transport=httpx.MockTransport(fake.handle))
    events = list(client.stream(STREAM, query={"type": "cash_out"}, headers={"last-event-id": "40"}))
    assert events == [
        ServerSentEvent("41", "cash_out", '{"event": "CashOut", "finalAmount": 10.5}'),
        ServerSentEvent("42", "cash_in", '{"a":\n1}'),
    ]
    assert events[0].json()["finalAmount"] == Decimal("10.5")
    (sent,) = fake.sent("GET /api/events/stream")
    assert sent.headers["accept"] == "text/event-stream"
    assert sent.headers["last-event-id"] == "40" and sent.url.params["type"] == "cash_out"
    assert sent.headers["authorization"] == "Bearer token-1"


def test_a_refused_stream_is_its_exception_and_the_async_client_streams_too() -> None:
    fake = Fake()
    fake.on("GET /api/events/stream", answer(404, {"statusCode": 404, "code": "NOT_FOUND", "message": "no", "timestamp": "t", "path": "p", "method": "GET", "userMessage": "u", "errorId": "e", "error": "Not Found"}), stream_route)
    client = PixClient("http://pix.test", "id", "secret", certificate_pem=CERT, transport=httpx.MockTransport(fake.handle))
    with pytest.raises(NotFoundError):
        list(client.stream(STREAM))

    async def run() -> list[str | None]:
        async with AsyncPixClient("http://pix.test", "id", "secret", certificate_pem=CERT, transport=httpx.MockTransport(fake.handle)) as aclient:
            return [event.id async for event in aclient.stream(STREAM)]

    assert asyncio.run(run()) == ["41", "42"]
