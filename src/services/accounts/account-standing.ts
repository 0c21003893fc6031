import type { Kysely, Transaction } from 'kysely';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import type { DB } from '../../db/schema.ts';

/**
 * The rule of a suspended account (issue 30 item 4; docs/decisions.md "Account suspension"): no
 * money leaves it. Every call the account makes that would debit it (a payout by key, by QR code
 * or by `/dict/pix`, a refund of a received PIX, from the API or the portal) asks this first and is
 * refused with 403 ACCOUNT_SUSPENDED. Reads, charges and incoming PIX are not money leaving, and
 * what was admitted before the suspension settles as usual: nothing in flight is lost.
 */
export async function assertMayMoveMoney(db: Kysely<DB> | Transaction<DB>, accountId: number): Promise<void> {
  if ((await accountsRepo.statusOf(db, accountId)) === 'SUSPENDED') {
    throw new DomainError('ACCOUNT_SUSPENDED', { accountId });
  }
}
