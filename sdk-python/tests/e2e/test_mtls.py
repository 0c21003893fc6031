"""`cert=(cert_file, key_file)`: the certificate proven in the TLS handshake, against a sandbox that
terminates TLS itself (TLS_CERT_FILE, TLS_CLIENT_AUTH=optional), with the demo account's certificate."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from pix_account_service import BadRequestError, PixClient

from sandbox_kit import Sandbox


@pytest.fixture(scope="module")
def tls_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sandbox]:
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "server-cert.pem", folder / "server-key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", str(key), "-out", str(cert),
         "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True,
    )
    service = Sandbox({"TLS_CERT_FILE": str(cert), "TLS_KEY_FILE": str(key), "TLS_CLIENT_AUTH": "optional"}, scheme="https", verify=str(cert))
    try:
        service.wait_ready()
        yield service
    finally:
        service.stop()


def test_a_client_certificate_in_the_handshake_gets_a_token_that_opens_the_api(tls_sandbox: Sandbox) -> None:
    demo = tls_sandbox.demo()
    server_cert = str(tls_sandbox.verify)
    with PixClient(tls_sandbox.base_url, demo.client_id, demo.client_secret, cert=(demo.cert_path, demo.key_path), verify=server_cert) as client:
        assert client.balance.get().net_balance == Decimal("10000.00")
        assert client.tokens_issued == 1
    # The same credentials without the certificate: no token, the certificate being its binding.
    with PixClient(tls_sandbox.base_url, demo.client_id, demo.client_secret, verify=server_cert) as bare:
        with pytest.raises(BadRequestError) as refused:
            bare.balance.get()
        assert (refused.value.status, refused.value.code) == (400, "PUB_CERT_HEADER_MISSING")
        assert bare.tokens_issued == 0
    assert Path(demo.cert_path).read_text().startswith("-----BEGIN CERTIFICATE-----")
