"""What the generated modules build on (hand-written): operations, JSON in and out, pages.

JSON numbers are read as ``Decimal`` (never ``float``), so an amount keeps its cents exactly; the
models' ``Decimal`` fields are the money of the API. Field names are snake_case in Python and the
API's own on the wire: ``register_wire_names`` keeps the pairs that differ (``net_balance`` <->
``netBalance``), per model.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import types
import typing
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any, Generic, Literal, Protocol, TypeVar, Union

T = TypeVar("T")
P = TypeVar("P")

#: An amount of BRL sent as a JSON number: a ``Decimal`` (or whole reais as an ``int``), never a float.
Money = Union[Decimal, int]
#: An amount of BRL the API writes as a string (``"150.00"``: the compatible family's ``valor``).
MoneyText = Annotated[Union[Decimal, int], "money-text"]


@dataclass(frozen=True)
class Operation:
    """One operation of the OpenAPI document: what the runtime needs to send it and to retry it."""

    method: str
    path: str
    security: tuple[str, ...]
    result: Literal["json", "text", "empty", "events"]
    #: The route takes ``x-idempotency-key``: one is generated per call when not given, so a retry is safe.
    idempotency_key: bool = False
    #: Where the body's ``externalId`` is: when present, the service refuses a second use of it, so a retry cannot act twice.
    external_id_path: tuple[str, ...] = ()
    #: The answer's required fields (an externalId POST's answer is rebuilt from its transaction after a lost answer).
    answer_fields: tuple[str, ...] = ()


_WIRE: dict[type, dict[str, str]] = {}
_PY: dict[type, dict[str, str]] = {}


def register_wire_names(names: Mapping[type, Mapping[str, str]]) -> None:
    """Records, per model, the Python field names whose API name differs."""
    for cls, pairs in names.items():
        _WIRE[cls] = dict(pairs)
        _PY[cls] = {wire: py for py, wire in pairs.items()}


def wire_name(cls: type, py: str) -> str:
    return _WIRE.get(cls, {}).get(py, py)


# ---- Out: the models, from JSON text --------------------------------------------------------------

def parse_json(text: str | bytes) -> Any:
    """JSON with every non-integer number as a Decimal (an amount keeps its cents exactly)."""
    return json.loads(text, parse_float=Decimal)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        module = sys.modules[cls.__module__]
        hints = typing.get_type_hints(cls, vars(module), include_extras=True)
        _HINTS[cls] = hints
    return hints


def _strip(tp: Any) -> Any:
    while typing.get_origin(tp) is Annotated or typing.get_origin(tp) in (typing.Required, typing.NotRequired):
        tp = typing.get_args(tp)[0]
    return tp


def _is_union(tp: Any) -> bool:
    origin = typing.get_origin(tp)
    return origin is Union or origin is types.UnionType


def _matches(data: Any, tp: Any) -> bool:
    """Whether an API value can be read as ``tp`` (chooses among the members of a union)."""
    tp = _strip(tp)
    if tp is Any:
        return True
    if tp is type(None):
        return data is None
    if _is_union(tp):
        return any(_matches(data, member) for member in typing.get_args(tp))
    origin = typing.get_origin(tp)
    if origin is Literal:
        return data in typing.get_args(tp)
    if origin in (list, tuple):
        return isinstance(data, list)
    if origin is dict:
        return isinstance(data, dict)
    if dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            return False
        hints = _hints(tp)
        for field in dataclasses.fields(tp):
            wire = wire_name(tp, field.name)
            required = field.default is dataclasses.MISSING
            if wire not in data:
                if required:
                    return False
                continue
            # A literal (an event's `type`) tells the members of a union apart.
            hint = _strip(hints[field.name])
            if typing.get_origin(hint) is Literal and data[wire] not in typing.get_args(hint):
                return False
        return True
    if tp is Decimal:
        return isinstance(data, (int, Decimal, str)) and not isinstance(data, bool)
    if tp is float:
        return isinstance(data, (int, float, Decimal)) and not isinstance(data, bool)
    if tp is int:
        return isinstance(data, int) and not isinstance(data, bool)
    if isinstance(tp, type):
        return isinstance(data, tp)
    return True


_CENTS = Decimal("0.01")


def _money(data: Any) -> Any:
    """An amount as a Decimal of cents (`150` -> `Decimal('150.00')`); more precise values are kept as sent."""
    if isinstance(data, bool) or not isinstance(data, (int, str, Decimal)):
        return data
    try:
        amount = Decimal(data)
    except ArithmeticError:
        return data
    exponent = amount.as_tuple().exponent
    return amount.quantize(_CENTS) if isinstance(exponent, int) and exponent >= -2 else amount


def decode(data: Any, cls: type[T]) -> T:
    """An API value (parsed JSON) as the model ``cls``."""
    return typing.cast(T, decode_as(data, cls))


def decode_as(data: Any, tp: Any) -> Any:
    """An API value (parsed JSON) as the annotation ``tp``; fields the model does not know are left out."""
    tp = _strip(tp)
    if data is None or tp is Any or tp is object:
        return data
    if _is_union(tp):
        members = [m for m in typing.get_args(tp) if _strip(m) is not type(None)]
        for member in members:
            if _matches(data, member):
                return decode_as(data, member)
        return decode_as(data, members[0]) if len(members) == 1 else data
    origin = typing.get_origin(tp)
    if origin is Literal:
        return data
    if origin is list:
        (item,) = typing.get_args(tp) or (Any,)
        return [decode_as(value, item) for value in data] if isinstance(data, list) else data
    if origin is dict:
        args = typing.get_args(tp)
        value_type = args[1] if len(args) == 2 else Any
        return {key: decode_as(value, value_type) for key, value in data.items()} if isinstance(data, dict) else data
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if not isinstance(data, dict):
            return data
        hints = _hints(tp)
        values: dict[str, Any] = {}
        for field in dataclasses.fields(tp):
            wire = wire_name(tp, field.name)
            values[field.name] = decode_as(data.get(wire), hints[field.name])
        return tp(**values)
    if tp is Decimal:
        return _money(data)
    if tp is float and isinstance(data, Decimal):
        return float(data)
    return data


# ---- In: keyword arguments and TypedDicts, to JSON ------------------------------------------------

def _is_typeddict(tp: Any) -> bool:
    return isinstance(tp, type) and typing.is_typeddict(tp)


def _money_text(value: Decimal | int) -> str:
    """`150` -> `"150.00"`; more than 2 decimals are sent as they are (the service names the field)."""
    amount = Decimal(value)
    exponent = amount.as_tuple().exponent
    if isinstance(exponent, int) and exponent >= -2:
        return f"{amount:.2f}"
    return format(amount, "f")


def _check_money(value: Any) -> None:
    if isinstance(value, float):
        raise TypeError("money is a Decimal (or an int of whole reais), never a float: Decimal('10.50')")


def _is_money(tp: Any) -> bool:
    return _is_union(tp) and Decimal in typing.get_args(tp)


def encode(value: Any, tp: Any = Any) -> Any:
    """A Python value (snake_case TypedDicts, Decimals) as the API's JSON value (its names, exact amounts)."""
    if value is None:
        return None
    if typing.get_origin(tp) is Annotated and "money-text" in typing.get_args(tp)[1:]:
        _check_money(value)
        return _money_text(value) if isinstance(value, (Decimal, int)) and not isinstance(value, bool) else value
    tp = _strip(tp)
    if _is_money(tp):
        _check_money(value)
        return value
    if _is_union(tp):
        for member in typing.get_args(tp):
            stripped = _strip(member)
            if _is_typeddict(stripped) and isinstance(value, Mapping):
                return encode(value, member)
        return encode(value)
    if _is_typeddict(tp) and isinstance(value, Mapping):
        return encode_object(tp, value)
    origin = typing.get_origin(tp)
    if origin is list and isinstance(value, (list, tuple)):
        (item,) = typing.get_args(tp) or (Any,)
        return [encode(v, item) for v in value]
    if isinstance(value, Mapping):
        value_type = typing.get_args(tp)[1] if origin is dict and len(typing.get_args(tp)) == 2 else Any
        return {str(k): encode(v, value_type) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    return value


def encode_object(cls: type, values: Mapping[str, Any]) -> dict[str, Any]:
    """A body (or a nested object) from its snake_case fields, leaving out the ones not given (None)."""
    hints = _hints(cls)
    return {wire_name(cls, key): encode(value, hints.get(key, Any)) for key, value in values.items() if value is not None}


class _Raw(str):
    """A JSON number's text, written as it is (a Decimal's exact digits)."""


def _to_jsonable(value: Any) -> Any:
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{value} is not an amount")
        return _Raw(format(value, "f"))
    if isinstance(value, float):
        return value
    if isinstance(value, dict):
        return {k: _to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_to_jsonable(v) for v in value]
    return value


def dump_json(value: Any) -> bytes:
    """JSON text with Decimals written exactly (``Decimal('10.50')`` -> ``10.50``, never a float's digits)."""
    parts: list[str] = []

    def write(v: Any) -> None:
        if isinstance(v, _Raw):
            parts.append(str.__str__(v))
        elif isinstance(v, dict):
            parts.append("{")
            for i, (k, item) in enumerate(v.items()):
                if i:
                    parts.append(",")
                parts.append(json.dumps(str(k)))
                parts.append(":")
                write(item)
            parts.append("}")
        elif isinstance(v, list):
            parts.append("[")
            for i, item in enumerate(v):
                if i:
                    parts.append(",")
                write(item)
            parts.append("]")
        else:
            parts.append(json.dumps(v))

    write(_to_jsonable(value))
    return "".join(parts).encode("utf-8")


# ---- Server-sent events ------------------------------------------------------------------------------

@dataclass(frozen=True)
class ServerSentEvent:
    """One event of a ``text/event-stream`` answer: its ``id`` (resume with it as ``last_event_id``), its
    ``event`` name and its ``data`` (``json()`` parses it, amounts as Decimal)."""

    id: str | None
    event: str | None
    data: str

    def json(self) -> Any:
        return parse_json(self.data)


class SseParser:
    """The text/event-stream format, line by line: ``:`` lines are comments (heartbeats), a blank line ends an event."""

    def __init__(self) -> None:
        self._id: str | None = None
        self._event: str | None = None
        self._data: list[str] = []

    def feed(self, line: str) -> ServerSentEvent | None:
        line = line.rstrip("\r\n")  # httpx 0.23 keeps the line ending, newer httpx does not
        if not line:
            if not self._data:
                self._event = None
                return None
            event = ServerSentEvent(self._id, self._event, "\n".join(self._data))
            self._event, self._data = None, []
            return event
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self._id = value
        return None


# ---- Resources and pages ----------------------------------------------------------------------------

class SyncRequester(Protocol):
    def stream(
        self,
        operation: Operation,
        *,
        path: Mapping[str, Any] | None = None,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
    ) -> Iterator[ServerSentEvent]: ...

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
    ) -> Any: ...


class AsyncRequester(Protocol):
    def stream(
        self,
        operation: Operation,
        *,
        path: Mapping[str, Any] | None = None,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
    ) -> AsyncIterator[ServerSentEvent]: ...

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
    ) -> Any: ...


class SyncResource:
    def __init__(self, client: SyncRequester) -> None:
        self._client = client


class AsyncResource:
    def __init__(self, client: AsyncRequester) -> None:
        self._client = client


def _page_items(page: Any) -> list[Any]:
    data = getattr(page, "data", None)
    return list(data) if isinstance(data, list) else []


def _next_cursor(page: Any, cursor_name: str, current: str | int | None) -> str | int | None:
    """The next page's cursor, or None after the last page."""
    items = _page_items(page)
    metadata = getattr(page, "metadata", None)
    for flag in ("has_next", "has_more"):
        value = getattr(metadata, flag, None)
        if value is False:
            return None
    if not items:
        return None
    if cursor_name == "after":
        last = items[-1]
        last_id = getattr(last, "id", None)
        return str(last_id) if last_id is not None else None
    number = getattr(metadata, "page", None)
    total_pages = getattr(metadata, "total_pages", None)
    page_number = int(number) if number is not None else int(current or 1)
    if getattr(metadata, "has_next", None) is None and total_pages is not None and page_number >= int(total_pages):
        return None
    return page_number + 1


class SyncPager(Generic[P, T]):
    """Every item of a paged list, page after page as you iterate (``for tx in client.transactions.list(): ...``)."""

    def __init__(self, fetch: Callable[[str | int | None], P], cursor_name: str, start: str | int | float | None) -> None:
        self._fetch = fetch
        self._cursor_name = cursor_name
        self._start: str | int | None = int(start) if isinstance(start, float) else start

    def pages(self) -> Iterator[P]:
        """Each page as the API answers it (``data`` and ``metadata``)."""
        cursor = self._start
        while True:
            page = self._fetch(cursor)
            yield page
            following = _next_cursor(page, self._cursor_name, cursor)
            if following is None or following == cursor:
                return
            cursor = following

    def first_page(self) -> P:
        return self._fetch(self._start)

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from typing.cast("list[T]", _page_items(page))


class AsyncPager(Generic[P, T]):
    """Every item of a paged list (``async for tx in client.transactions.list(): ...``)."""

    def __init__(self, fetch: Callable[[str | int | None], Awaitable[P]], cursor_name: str, start: str | int | float | None) -> None:
        self._fetch = fetch
        self._cursor_name = cursor_name
        self._start: str | int | None = int(start) if isinstance(start, float) else start

    async def pages(self) -> AsyncIterator[P]:
        cursor = self._start
        while True:
            page = await self._fetch(cursor)
            yield page
            following = _next_cursor(page, self._cursor_name, cursor)
            if following is None or following == cursor:
                return
            cursor = following

    async def first_page(self) -> P:
        return await self._fetch(self._start)

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.pages():
            for item in typing.cast("list[T]", _page_items(page)):
                yield item
