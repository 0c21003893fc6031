"""Balance and the day's confirmed total with AsyncPixClient (same environment as cash_out.py)."""

from __future__ import annotations

import asyncio
import os
from decimal import Decimal
from pathlib import Path

from pix_account_service import AsyncPixClient


async def main() -> None:
    async with AsyncPixClient(
        os.environ.get("PIX_BASE_URL", "http://127.0.0.1:3000"),
        os.environ["PIX_CLIENT_ID"],
        os.environ["PIX_CLIENT_SECRET"],
        certificate_pem=Path(os.environ["PIX_CERT_FILE"]).read_text(),
    ) as client:
        balance = await client.balance.get()
        total = Decimal("0.00")
        async for transaction in client.transactions.list(status="CONFIRMED", size=100):
            total += transaction.final_amount
        print(f"available {balance.net_balance}, blocked {balance.blocked_balance}, confirmed total {total}")


if __name__ == "__main__":
    asyncio.run(main())
