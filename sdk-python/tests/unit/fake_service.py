"""A scripted service behind httpx.MockTransport: records every request, answers from a queue per route."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import httpx

Answer = httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]
CERT = "-----BEGIN CERTIFICATE-----\nMIIB+z==\n-----END CERTIFICATE-----\n"


def answer(status: int, body: Any = None, headers: dict[str, str] | None = None) -> httpx.Response:
    if body is None:
        return httpx.Response(status, headers=headers)
    return httpx.Response(status, content=json.dumps(body).encode(), headers={"content-type": "application/json", **(headers or {})})


@dataclass
class Fake:
    """Queues of answers by `METHOD path`; a token endpoint that issues numbered tokens."""

    routes: dict[str, list[Answer]] = field(default_factory=dict)
    requests: list[httpx.Request] = field(default_factory=list)
    tokens: int = 0
    expires_in: int = 1800

    def on(self, route: str, *answers: Answer) -> None:
        self.routes.setdefault(route, []).extend(answers)

    def handle(self, request: httpx.Request) -> httpx.Response:
        request.read()
        self.requests.append(request)
        if request.method == "POST" and request.url.path == "/api/auth/token" and "POST /api/auth/token" not in self.routes:
            self.tokens += 1
            return answer(201, {"access_token": f"token-{self.tokens}", "token_type": "Bearer", "expires_in": self.expires_in})
        queue = self.routes.get(f"{request.method} {request.url.path}")
        if not queue:
            return answer(404, {"statusCode": 404, "message": f"no route {request.method} {request.url.path}", "error": "Not Found"})
        step = queue.pop(0) if len(queue) > 1 else queue[0]
        if isinstance(step, Exception):
            raise step
        if callable(step) and not isinstance(step, httpx.Response):
            return step(request)
        return step

    def sent(self, route: str) -> list[httpx.Request]:
        method, path = route.split(" ", 1)
        return [r for r in self.requests if r.method == method and r.url.path == path]

    @staticmethod
    def json(request: httpx.Request) -> Any:
        return json.loads(request.content)

    @staticmethod
    def certificate(request: httpx.Request) -> str:
        return unquote(request.headers["x-ssl-client-cert"])
