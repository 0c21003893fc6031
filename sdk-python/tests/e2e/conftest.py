"""One live sandbox for the whole end-to-end session (see sandbox_kit.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sandbox_kit import Sandbox


@pytest.fixture(scope="session")
def sandbox() -> Iterator[Sandbox]:
    service = Sandbox()
    try:
        service.wait_ready()
        yield service
    finally:
        service.stop()
