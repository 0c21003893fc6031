"""The clients' transport (hand-written): credentials, certificate, token renewal, retries, errors.

Retries repeat only what cannot act twice: GET, HEAD, PUT, DELETE; a route that takes
``x-idempotency-key`` (one is generated per call when not given); and a POST whose body carries an
``externalId``, which the service refuses to use twice. They happen on 429, 503 and network failures,
waiting ``Retry-After`` (capped) or an exponential backoff with jitter. When a retried POST answers
that its ``externalId`` is taken after an attempt whose fate is unknown (the connection broke after
sending), the first attempt is the one that landed: the client reads that transaction and returns it.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import ssl
import threading
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Self
from urllib.parse import quote

import httpx

from ._core import Operation, ServerSentEvent, SseParser, dump_json, parse_json
from .errors import ApiError, NetworkError, error_from_answer

#: Renew a token this long before it expires, so no call carries a token about to lapse.
RENEW_BEFORE_SECONDS = 30.0
_RETRY_STATUSES = (429, 503)
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
_DUPLICATE_CODES = frozenset({"PIX_DUPLICATE_EXTERNAL_ID", "PIX_REFUND_DUPLICATE_EXTERNAL_ID"})
_TRANSACTION_PATH = "/api/pix/transaction/{id}"
_USER_AGENT = "pix-account-service-python"


@dataclass
class RetryPolicy:
    """How many times a retryable call is sent again, and how long to wait between attempts."""

    max_retries: int = 3
    #: First backoff in seconds, doubled each retry, with full jitter.
    base_delay: float = 0.25
    #: Upper bound of one wait, also of a Retry-After.
    max_delay: float = 10.0

    def backoff(self, attempt: int) -> float:
        return random.uniform(0, min(self.max_delay, self.base_delay * 2**attempt))


@dataclass
class _Prepared:
    method: str
    url: str
    params: list[tuple[str, str]]
    headers: dict[str, str]
    content: bytes | None
    retryable: bool
    auth: str | None
    external_id: str | None = None
    answer_fields: tuple[str, ...] = field(default_factory=tuple)


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return format(value, "f")
    return str(value)


def _dig(body: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(body, dict):
            return None
        body = body.get(key)
    return body


def prepare(
    operation: Operation,
    kinds: tuple[str, ...],
    *,
    path: Mapping[str, Any] | None,
    query: Mapping[str, Any] | None,
    headers: Mapping[str, Any] | None,
    json: Any,
    form: Mapping[str, str] | None,
    idempotency_key: str | None,
) -> _Prepared:
    """The request of one call: URL, query, headers, body, which credential, and whether it may be repeated."""
    url = operation.path
    for name, value in (path or {}).items():
        # An id the document types as a number may arrive as a float: 7.0 is the segment "7".
        segment = str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
        url = url.replace("{" + name + "}", quote(segment, safe=""))
    params: list[tuple[str, str]] = []
    for name, value in (query or {}).items():
        if value is None:
            continue
        for item in value if isinstance(value, (list, tuple)) else [value]:
            params.append((name, _query_value(item)))
    sent: dict[str, str] = {"accept": "application/json, text/plain;q=0.9, */*;q=0.1", "user-agent": _USER_AGENT}
    for name, value in (headers or {}).items():
        if value is not None:
            sent[name.lower()] = str(value)
    content: bytes | None = None
    if json is not None:
        content = dump_json(json)
        sent["content-type"] = "application/json"
    elif form is not None:
        content = httpx.QueryParams(dict(form)).__str__().encode("ascii")
        sent["content-type"] = "application/x-www-form-urlencoded"
    elif operation.method in ("POST", "PUT", "PATCH"):
        content = b"{}"
        sent["content-type"] = "application/json"
    if operation.idempotency_key:
        sent["x-idempotency-key"] = idempotency_key or str(uuid.uuid4())
    external_id = _dig(json, operation.external_id_path) if operation.external_id_path else None
    retryable = operation.method in _SAFE_METHODS or "x-idempotency-key" in sent or isinstance(external_id, str)
    auth = next((kind for kind in kinds if kind in operation.security), None)
    return _Prepared(
        operation.method, url, params, sent, content, retryable, auth,
        external_id if isinstance(external_id, str) else None, operation.answer_fields,
    )


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    at: Any
    try:
        at = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, float(at.timestamp()) - time.time())


def _body(response: httpx.Response) -> Any:
    try:
        return parse_json(response.content) if response.content else None
    except ValueError:
        return None


def _raise_for(response: httpx.Response) -> None:
    if response.status_code < 400:
        return
    raise error_from_answer(response.status_code, _body(response), response.headers.get("x-request-id"), _retry_after(response))


def _result(operation: Operation, response: httpx.Response) -> Any:
    _raise_for(response)
    if operation.result == "json":
        return _body(response)
    if operation.result == "text":
        return response.text
    return None


def _duplicate_of(response: httpx.Response) -> str | None:
    """The transaction a refused duplicate names, when the answer is an `externalId` already used."""
    if response.status_code not in (400, 409):
        return None
    body = _body(response)
    if not isinstance(body, dict):
        return None
    codes = {body.get("code"), body.get("errorCode")}
    details = body.get("details")
    existing = details.get("existingTransactionId") if isinstance(details, dict) else None
    return existing if codes & _DUPLICATE_CODES and isinstance(existing, str) else None


def _landed(transaction: Any, existing: str, answer_fields: tuple[str, ...]) -> dict[str, Any] | None:
    """The create answer rebuilt from the transaction the first attempt made, when it has every field."""
    if not isinstance(transaction, dict):
        return None
    answer = {**transaction, "transactionId": existing}
    if "generateTime" not in answer and "createdAt" in transaction:
        answer["generateTime"] = transaction["createdAt"]
    return answer if all(name in answer for name in answer_fields) else None


def _ssl_context(verify: bool | str | ssl.SSLContext, cert: tuple[str, str] | None) -> bool | ssl.SSLContext:
    """What httpx gets as ``verify``: a context carrying the client certificate when there is one (mTLS)."""
    if isinstance(verify, ssl.SSLContext):
        if cert:
            verify.load_cert_chain(cert[0], cert[1])
        return verify
    if cert is None and isinstance(verify, bool):
        return verify
    context = ssl.create_default_context(cafile=verify if isinstance(verify, str) else None)
    if verify is False:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    if cert:
        context.load_cert_chain(cert[0], cert[1])
    return context


class _Token:
    def __init__(self) -> None:
        self.value: str | None = None
        self.expires_at = 0.0
        #: How many tokens were requested (tests read it).
        self.issued = 0

    def current(self, now: float) -> str | None:
        return self.value if self.value and now < self.expires_at - RENEW_BEFORE_SECONDS else None

    def keep(self, body: Any, started: float) -> str:
        if not isinstance(body, dict) or not isinstance(body.get("access_token"), str):
            raise NetworkError("the token endpoint answered without an access_token")
        value: str = body["access_token"]
        self.value = value
        expires_in = body.get("expires_in")
        self.expires_at = started + float(expires_in if isinstance(expires_in, (int, float, Decimal)) else 0)
        self.issued += 1
        return value

    def forget(self, token: str) -> None:
        if self.value == token:
            self.value = None


def _is_unsent(error: httpx.TransportError) -> bool:
    """The request never left: the connection could not be opened."""
    return isinstance(error, (httpx.ConnectError, httpx.ConnectTimeout))


class _SyncTransport:
    """Sends requests with retries; PixClient and AdminClient add their credential."""

    _kinds: tuple[str, ...] = ()

    def __init__(self, base_url: str, *, timeout: float, verify: bool | ssl.SSLContext, transport: httpx.BaseTransport | None, retry: RetryPolicy | None) -> None:
        self._http = httpx.Client(base_url=base_url.rstrip("/"), timeout=timeout, verify=verify, transport=transport)
        self.retry = retry or RetryPolicy()
        #: How the client waits between attempts (tests replace it).
        self.sleep: Callable[[float], None] = time.sleep

    def _authorization(self, kind: str | None) -> dict[str, str]:
        return {}

    def _refused_token(self, headers: Mapping[str, str]) -> bool:
        return False

    def _send(self, prepared: _Prepared) -> tuple[httpx.Response, bool]:
        """The answer, after the retries allowed; and whether an attempt may have acted without an answer."""
        uncertain = False
        attempt = 0
        renewed = False
        while True:
            last = not prepared.retryable or attempt >= self.retry.max_retries
            headers = {**prepared.headers, **self._authorization(prepared.auth)}
            try:
                response = self._http.request(prepared.method, prepared.url, params=tuple(prepared.params), headers=headers, content=prepared.content)
            except httpx.TransportError as error:
                uncertain = uncertain or not _is_unsent(error)
                if last:
                    raise NetworkError(f"{prepared.method} {prepared.url} failed: {error!r}") from error
                self.sleep(self.retry.backoff(attempt))
                attempt += 1
                continue
            if response.status_code == 401 and not renewed and self._refused_token(headers):
                # A token refused before its time (the signing key rotated): renew it once; nothing was done.
                renewed = True
                continue
            if response.status_code in _RETRY_STATUSES and not last:
                wait = _retry_after(response)
                self.sleep(min(self.retry.max_delay, wait if wait is not None else self.retry.backoff(attempt)))
                attempt += 1
                continue
            return response, uncertain

    def request(
        self,
        operation: Operation,
        *,
        path: Mapping[str, Any] | None = None,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        json: Any = None,
        form: Mapping[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        """Sends one operation and returns its parsed answer, or raises its ApiError / NetworkError."""
        prepared = prepare(operation, self._kinds, path=path, query=query, headers=headers, json=json, form=form, idempotency_key=idempotency_key)
        response, uncertain = self._send(prepared)
        existing = _duplicate_of(response) if uncertain and prepared.external_id else None
        if existing:
            transaction = self.request(Operation("GET", _TRANSACTION_PATH, operation.security, "json"), path={"id": existing})
            answer = _landed(transaction, existing, prepared.answer_fields)
            if answer is not None:
                return answer
        return _result(operation, response)

    def stream(
        self,
        operation: Operation,
        *,
        path: Mapping[str, Any] | None = None,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
    ) -> Iterator[ServerSentEvent]:
        """The events of a ``text/event-stream`` operation as they come (no retry: resume with the last id)."""
        prepared = prepare(operation, self._kinds, path=path, query=query, headers=headers, json=None, form=None, idempotency_key=None)
        sent = {**prepared.headers, "accept": "text/event-stream", **self._authorization(prepared.auth)}
        try:
            with self._http.stream(prepared.method, prepared.url, params=tuple(prepared.params), headers=sent, content=prepared.content) as response:
                if response.status_code >= 400:
                    response.read()
                    _raise_for(response)
                parser = SseParser()
                for line in response.iter_lines():
                    event = parser.feed(line)
                    if event is not None:
                        yield event
        except httpx.TransportError as error:
            raise NetworkError(f"{prepared.method} {prepared.url} failed: {error!r}") from error

    def close(self) -> None:
        self._http.close()


class _AsyncTransport:
    """The asyncio twin of _SyncTransport."""

    _kinds: tuple[str, ...] = ()

    def __init__(self, base_url: str, *, timeout: float, verify: bool | ssl.SSLContext, transport: httpx.AsyncBaseTransport | None, retry: RetryPolicy | None) -> None:
        self._http = httpx.AsyncClient(base_url=base_url.rstrip("/"), timeout=timeout, verify=verify, transport=transport)
        self.retry = retry or RetryPolicy()
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    async def _authorization(self, kind: str | None) -> dict[str, str]:
        return {}

    def _refused_token(self, headers: Mapping[str, str]) -> bool:
        return False

    async def _send(self, prepared: _Prepared) -> tuple[httpx.Response, bool]:
        uncertain = False
        attempt = 0
        renewed = False
        while True:
            last = not prepared.retryable or attempt >= self.retry.max_retries
            headers = {**prepared.headers, **(await self._authorization(prepared.auth))}
            try:
                response = await self._http.request(prepared.method, prepared.url, params=tuple(prepared.params), headers=headers, content=prepared.content)
            except httpx.TransportError as error:
                uncertain = uncertain or not _is_unsent(error)
                if last:
                    raise NetworkError(f"{prepared.method} {prepared.url} failed: {error!r}") from error
                await self.sleep(self.retry.backoff(attempt))
                attempt += 1
                continue
            if response.status_code == 401 and not renewed and self._refused_token(headers):
                renewed = True
                continue
            if response.status_code in _RETRY_STATUSES and not last:
                wait = _retry_after(response)
                await self.sleep(min(self.retry.max_delay, wait if wait is not None else self.retry.backoff(attempt)))
                attempt += 1
                continue
            return response, uncertain

    async def request(
        self,
        operation: Operation,
        *,
        path: Mapping[str, Any] | None = None,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        json: Any = None,
        form: Mapping[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> Any:
        prepared = prepare(operation, self._kinds, path=path, query=query, headers=headers, json=json, form=form, idempotency_key=idempotency_key)
        response, uncertain = await self._send(prepared)
        existing = _duplicate_of(response) if uncertain and prepared.external_id else None
        if existing:
            transaction = await self.request(Operation("GET", _TRANSACTION_PATH, operation.security, "json"), path={"id": existing})
            answer = _landed(transaction, existing, prepared.answer_fields)
            if answer is not None:
                return answer
        return _result(operation, response)

    async def stream(
        self,
        operation: Operation,
        *,
        path: Mapping[str, Any] | None = None,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
    ) -> AsyncIterator[ServerSentEvent]:
        prepared = prepare(operation, self._kinds, path=path, query=query, headers=headers, json=None, form=None, idempotency_key=None)
        sent = {**prepared.headers, "accept": "text/event-stream", **(await self._authorization(prepared.auth))}
        try:
            async with self._http.stream(prepared.method, prepared.url, params=tuple(prepared.params), headers=sent, content=prepared.content) as response:
                if response.status_code >= 400:
                    await response.aread()
                    _raise_for(response)
                parser = SseParser()
                async for line in response.aiter_lines():
                    event = parser.feed(line)
                    if event is not None:
                        yield event
        except httpx.TransportError as error:
            raise NetworkError(f"{prepared.method} {prepared.url} failed: {error!r}") from error

    async def aclose(self) -> None:
        await self._http.aclose()


def _certificate_header(certificate_pem: str | None) -> dict[str, str]:
    # The sandbox (and a TLS proxy) takes the PEM URL-encoded, as nginx's $ssl_client_escaped_cert.
    return {"x-ssl-client-cert": quote(certificate_pem, safe="")} if certificate_pem else {}


class BasePixClient(_SyncTransport):
    """An account's client: tokens from its credentials, bound to its certificate (see PixClient)."""

    _kinds = ("bearer",)

    def __init__(
        self,
        base_url: str,
        client_id: str,
        client_secret: str,
        *,
        certificate_pem: str | None = None,
        cert: tuple[str, str] | None = None,
        timeout: float = 30.0,
        verify: bool | str | ssl.SSLContext = True,
        transport: httpx.BaseTransport | None = None,
        retry: RetryPolicy | None = None,
    ) -> None:
        """``certificate_pem`` is sent in ``X-SSL-Client-Cert`` (the sandbox over http); ``cert=(cert_file,
        key_file)`` is presented in the TLS handshake (mTLS). ``verify`` trusts a CA file or turns
        checking off for a self-signed test server; ``transport`` replaces the network (tests)."""
        super().__init__(base_url, timeout=timeout, verify=_ssl_context(verify, cert), transport=transport, retry=retry)
        self._client_id = client_id
        self._client_secret = client_secret
        self._certificate = _certificate_header(certificate_pem)
        self._token = _Token()
        self._token_lock = threading.Lock()
        self._attach_resources()

    def _attach_resources(self) -> None:
        """Set by the generated PixClient."""

    @property
    def tokens_issued(self) -> int:
        """How many access tokens this client requested (one per 30 minutes, less 30 s, in normal use)."""
        return self._token.issued

    def access_token(self) -> str:
        """A valid access token: the current one, or a new one 30 s before it expires (one request for all threads)."""
        token = self._token.current(time.monotonic())
        if token:
            return token
        with self._token_lock:
            token = self._token.current(time.monotonic())
            if token:
                return token
            started = time.monotonic()
            prepared = _Prepared(
                "POST", "/api/auth/token", [], {"content-type": "application/json", "user-agent": _USER_AGENT},
                dump_json({"clientId": self._client_id, "clientSecret": self._client_secret}), True, None,
            )
            # Asking for a token changes nothing: it is retried like a GET.
            response, _ = self._send(prepared)
            _raise_for(response)
            return self._token.keep(_body(response), started)

    def _authorization(self, kind: str | None) -> dict[str, str]:
        if kind == "bearer":
            return {**self._certificate, "authorization": f"Bearer {self.access_token()}"}
        return dict(self._certificate)

    def _refused_token(self, headers: Mapping[str, str]) -> bool:
        sent = headers.get("authorization", "")
        if not sent.startswith("Bearer "):
            return False
        self._token.forget(sent[len("Bearer "):])
        return True

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class BaseAsyncPixClient(_AsyncTransport):
    """The asyncio twin of BasePixClient (see AsyncPixClient)."""

    _kinds = ("bearer",)

    def __init__(
        self,
        base_url: str,
        client_id: str,
        client_secret: str,
        *,
        certificate_pem: str | None = None,
        cert: tuple[str, str] | None = None,
        timeout: float = 30.0,
        verify: bool | str | ssl.SSLContext = True,
        transport: httpx.AsyncBaseTransport | None = None,
        retry: RetryPolicy | None = None,
    ) -> None:
        super().__init__(base_url, timeout=timeout, verify=_ssl_context(verify, cert), transport=transport, retry=retry)
        self._client_id = client_id
        self._client_secret = client_secret
        self._certificate = _certificate_header(certificate_pem)
        self._token = _Token()
        self._token_lock: asyncio.Lock | None = None
        self._attach_resources()

    def _attach_resources(self) -> None:
        """Set by the generated AsyncPixClient."""

    @property
    def tokens_issued(self) -> int:
        return self._token.issued

    async def access_token(self) -> str:
        token = self._token.current(time.monotonic())
        if token:
            return token
        # Made here, not in __init__: a lock belongs to the running loop.
        self._token_lock = self._token_lock or asyncio.Lock()
        async with self._token_lock:
            token = self._token.current(time.monotonic())
            if token:
                return token
            started = time.monotonic()
            prepared = _Prepared(
                "POST", "/api/auth/token", [], {"content-type": "application/json", "user-agent": _USER_AGENT, **self._certificate},
                dump_json({"clientId": self._client_id, "clientSecret": self._client_secret}), True, None,
            )
            response, _ = await self._send(prepared)
            _raise_for(response)
            return self._token.keep(_body(response), started)

    async def _authorization(self, kind: str | None) -> dict[str, str]:
        if kind == "bearer":
            return {**self._certificate, "authorization": f"Bearer {await self.access_token()}"}
        return dict(self._certificate)

    def _refused_token(self, headers: Mapping[str, str]) -> bool:
        sent = headers.get("authorization", "")
        if not sent.startswith("Bearer "):
            return False
        self._token.forget(sent[len("Bearer "):])
        return True

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class BaseAdminClient(_SyncTransport):
    """An operator's client: the admin token on every operator route (see AdminClient)."""

    _kinds = ("admin",)

    def __init__(
        self,
        base_url: str,
        admin_token: str,
        *,
        timeout: float = 30.0,
        verify: bool | str | ssl.SSLContext = True,
        transport: httpx.BaseTransport | None = None,
        retry: RetryPolicy | None = None,
    ) -> None:
        super().__init__(base_url, timeout=timeout, verify=_ssl_context(verify, None), transport=transport, retry=retry)
        self._admin_token = admin_token
        self._attach_resources()

    def _attach_resources(self) -> None:
        """Set by the generated AdminClient."""

    def _authorization(self, kind: str | None) -> dict[str, str]:
        return {"authorization": f"Bearer {self._admin_token}"} if kind == "admin" else {}

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["ApiError", "BaseAdminClient", "BaseAsyncPixClient", "BasePixClient", "RetryPolicy"]
