"""`transactions.list(...)` walks every page."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

from sandbox_kit import Sandbox, cpf


def test_the_list_iterator_reads_all_250_transactions_across_pages(sandbox: Sandbox) -> None:
    account = sandbox.account()
    started = time.monotonic()

    def deposit(n: int) -> None:
        sandbox.admin.sandbox.create_deposit(
            account_id=account.id, value=Decimal(n) / 100 + 1,
            payer={"name": "Pagador Externo", "document": cpf(31337 + n), "ispb": "60746948"},
        )

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(deposit, range(250)))
    print(f"250 deposits in {time.monotonic() - started:.1f} s")

    with account.client(sandbox.base_url) as client:
        pager = client.transactions.list(size=100)
        pages = list(pager.pages())
        assert [len(page.data) for page in pages] == [100, 100, 50]
        assert [page.metadata.page for page in pages] == [1, 2, 3]
        items = list(client.transactions.list(size=100))
        assert len(items) == 250
        assert len({tx.transaction_id for tx in items}) == 250
        assert sum(tx.original_amount for tx in items) == sum(Decimal(n) / 100 + 1 for n in range(250))
        # Starting from a later page is the caller's choice.
        assert len(list(client.transactions.list(size=100, page=3))) == 50
