"""Pays a PIX key and waits for the final status (PIX_BASE_URL, PIX_CLIENT_ID, PIX_CLIENT_SECRET, PIX_CERT_FILE).

    /usr/bin/python3 examples/cash_out.py maria@example.com 10.50
"""

from __future__ import annotations

import os
import sys
import time
import uuid
from decimal import Decimal
from pathlib import Path

from pix_account_service import ApiError, PixClient


def main(key: str, amount: Decimal) -> int:
    with PixClient(
        os.environ.get("PIX_BASE_URL", "http://127.0.0.1:3000"),
        os.environ["PIX_CLIENT_ID"],
        os.environ["PIX_CLIENT_SECRET"],
        certificate_pem=Path(os.environ["PIX_CERT_FILE"]).read_text(),
    ) as client:
        try:
            payout = client.cash_out.create(
                value=amount,
                external_id=f"example-{uuid.uuid4()}",
                details={"key": key, "key_type": "EMAIL", "name": "Maria da Silva", "document": "11144477735"},
            )
        except ApiError as error:
            print(f"refused: {error.code} {error.message} (request {error.request_id})", file=sys.stderr)
            return 1
        deadline = time.monotonic() + 60
        status = payout.status
        while status == "PENDING" and time.monotonic() < deadline:
            time.sleep(1)
            status = client.transactions.get(payout.transaction_id).status
        print(payout.transaction_id, status, client.balance.get().net_balance)
        return 0 if status == "CONFIRMED" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], Decimal(sys.argv[2])))
