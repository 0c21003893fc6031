import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { endToEndId } from '../../domain/ids.ts';
import type { Cents } from '../../domain/money.ts';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { SystemAccount } from '../../ledger/ledger.ts';
import { bankByIspb } from '../../domain/banks.ts';
import type { Payer } from '../../network/pix-network.ts';
import { DEFAULT_PAYER } from '../../network/default-payer.ts';
import type { ReceivePix } from '../received-pix.ts';
import { transact } from '../../db/transact.ts';

/**
 * An incoming PIX to the account's key with no charge behind it, as the simulated network sends it
 * (`POST /sandbox/deposits`, the demo account's funding): a confirmed "Pix in", its credit from the
 * outside world and its `cash_in` event, in one transaction. The same end-to-end id again changes
 * nothing and answers the PIX it already made.
 */
export function createDepositService(deps: { db: Kysely<DB>; clock: Clock; receivePix: ReceivePix }) {
  const { receivePix } = deps;

  /** `from`: where the money comes from (the outside world in the sandbox; a network's clearing account). */
  async function deposit(accountId: number, amount: Cents, payer: Payer = DEFAULT_PAYER, e2e?: string, from: SystemAccount = 'world'): Promise<TransactionRow> {
    return transact(deps.db, async (trx) => {
      const receiver = await accountsRepo.withFee(trx, accountId, 'cash_in', amount);
      if (!receiver) throw new DomainError('NOT_FOUND', undefined, `Account ${accountId} not found`);
      const endToEnd = e2e ?? endToEndId('E', payer.ispb, deps.clock.now());
      const already = await trx.selectFrom('transactions').selectAll().where('account_id', '=', accountId).where('end_to_end_id', '=', endToEnd).where('kind', '=', 'PAYMENT').executeTakeFirst();
      if (already) return already;
      const bank = bankByIspb(payer.ispb);
      return receivePix(trx, receiver, {
        origin: 'deposit',
        from,
        endToEndId: endToEnd,
        pixKey: receiver.account.pix_key,
        description: null,
        counterpart: {
          name: payer.name,
          document: payer.document,
          bank: { bankISPB: payer.ispb, bankName: bank?.name ?? null, bankCode: bank?.code ?? null, accountBranch: null, accountNumber: null },
        },
      });
    });
  }
  return { deposit };
}

export type DepositService = ReturnType<typeof createDepositService>;
