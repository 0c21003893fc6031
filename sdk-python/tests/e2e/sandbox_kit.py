"""The live sandbox the end-to-end suite drives (conftest.py starts one per session): the service started as a process (`src/main.ts`, the
command `npm start` runs) in sandbox mode on an in-memory database and a free port, stopped at the end."""

from __future__ import annotations

import os
import re
import secrets
import signal
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

from pix_account_service import AdminClient, PixClient

REPO = Path(__file__).resolve().parents[3]
#: Start-up is seconds of CPU (TypeScript compiled on the fly, migrations): minutes on a loaded CI machine.
START_TIMEOUT_S = float(os.environ.get("PIX_SANDBOX_START_TIMEOUT_S", "240"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpf(seed: int) -> str:
    """A valid CPF (the service checks the digits)."""
    base = [int(d) for d in f"{seed % 10**9:09d}"]
    if len(set(base)) == 1:
        base[-1] = (base[-1] + 1) % 10
    for length in (9, 10):
        total = sum(d * w for d, w in zip(base, range(length + 1, 1, -1)))
        digit = (total * 10) % 11
        base.append(0 if digit == 10 else digit)
    return "".join(map(str, base))


@dataclass
class Demo:
    client_id: str
    client_secret: str
    cert_path: str
    key_path: str


@dataclass
class Account:
    id: int
    pix_key: str
    client_id: str
    client_secret: str
    certificate_pem: str

    def client(self, base_url: str, **options: object) -> PixClient:
        return PixClient(base_url, self.client_id, self.client_secret, certificate_pem=self.certificate_pem, **options)  # type: ignore[arg-type]


class Sandbox:
    def __init__(self, extra_env: dict[str, str] | None = None, scheme: str = "http", verify: bool | str = True) -> None:
        self.port = free_port()
        self.base_url = f"{scheme}://127.0.0.1:{self.port}"
        self.admin_token = "py-sdk-" + secrets.token_urlsafe(24)
        self.lines: list[str] = []
        env = {
            **os.environ,
            "MODE": "sandbox",
            "DATA_DIR": "memory://",
            "PORT": str(self.port),
            "HOST": "127.0.0.1",
            "ADMIN_TOKEN": self.admin_token,
            "LOG_LEVEL": "warn",
            "NODE_ENV": "development",
            **(extra_env or {}),
        }
        tsx = REPO / "node_modules" / ".bin" / "tsx"
        self.process = subprocess.Popen(
            [str(tsx), "src/main.ts"], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, start_new_session=True,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.verify = verify
        self.admin = AdminClient(self.base_url, self.admin_token, verify=verify)
        self._seq = 0

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("the sandbox exited:\n" + "\n".join(self.lines[-40:]))
            if any("Get an access token" in line for line in self.lines):
                try:
                    if httpx.get(self.base_url + "/ready", timeout=5, verify=self.verify).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
            time.sleep(0.25)
        raise RuntimeError(f"the sandbox did not start within {START_TIMEOUT_S} s:\n" + "\n".join(self.lines[-40:]))

    def banner(self, label: str) -> str:
        for line in self.lines:
            match = re.match(rf"\s*{re.escape(label)}:\s+(\S+)", line)
            if match:
                return match.group(1)
        raise LookupError(label)

    def demo(self) -> Demo:
        return Demo(self.banner("clientId"), self.banner("clientSecret"), self.banner("certificate"), self.banner("private key"))

    def account(self, funds: str | None = None) -> Account:
        """A new account with its certificate and credentials, funded by a PIX from another bank when asked."""
        self._seq += 1
        created = self.admin.accounts.create(name=f"Conta Python {self._seq}", document=cpf(int(uuid.uuid4().int % 10**9)))
        certificate = self.admin.certificates.register(created.id)
        credentials = self.admin.credentials.create(created.id)
        assert certificate.certificate_pem is not None
        account = Account(int(created.id), created.pix_key, credentials.client_id, credentials.client_secret, certificate.certificate_pem)
        if funds is not None:
            from decimal import Decimal

            self.admin.sandbox.create_deposit(
                account_id=account.id, value=Decimal(funds),
                payer={"name": "Pagador Externo", "document": cpf(31337), "ispb": "60746948"},
            )
        return account

    def stop(self) -> None:
        self.admin.close()
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def until(condition: "object", within_s: float, what: str) -> None:
    """Polls `condition()` until it is true; a wait never ends without a bound."""
    deadline = time.monotonic() + within_s
    while True:
        if condition():  # type: ignore[operator]
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} (within {within_s} s)")
        time.sleep(0.2)
