import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { endToEndId, newUuidV4 } from '../../domain/ids.ts';
import { cents, toBrlNumber, type Cents } from '../../domain/money.ts';
import { transactionsRepo, type TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Counterpart, DB } from '../../db/schema.ts';
import type { NetworkClearingAccount } from '../../ledger/chart.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import type { Outbox } from '../../webhooks/outbox.ts';
import { parentTransaction, transactionEvent } from '../../webhooks/payloads/transaction-event.ts';
import { transact } from '../../db/transact.ts';
import { remainingRefundable } from '../refunds/refund-rules.ts';
import { reserveRefundable } from '../refunds/refunds.repo.ts';

/**
 * The receiving bank returns part or all of a confirmed payout (sandbox): a CONFIRMED "Refund out"
 * (REFUND_OUT, CREDIT) credited to the account, with its `refund_out` event. The payout's
 * `refunded_amount` grows in one conditional update, so refunds never add up to more than it paid.
 */
export function createPayoutRefundService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  ledger: Ledger;
  outbox: Outbox;
  institutionIspb: string;
  /** The refund comes back over the network the payout left through. */
  networkAccount: NetworkClearingAccount;
}) {
  /** `returnEndToEndId`: the network's id of the return; the same return again answers the first credit. */
  async function refund(accountId: number, identifier: string, amount: Cents, returnEndToEndId?: string): Promise<TransactionRow> {
    return transact(deps.db, async (trx) => {
      const payout = await transactionsRepo.findForAccount(trx, accountId, identifier);
      if (!payout || payout.kind !== 'WITHDRAW') throw new DomainError('NOT_FOUND', undefined, 'Payout not found');
      if (returnEndToEndId !== undefined) {
        const already = await trx.selectFrom('transactions').selectAll().where('parent_id', '=', payout.id).where('kind', '=', 'REFUND_OUT').where('end_to_end_id', '=', returnEndToEndId).executeTakeFirst();
        if (already) return already;
      }
      const updated = await reserveRefundable(trx, payout.id, amount, { status: 'CONFIRMED', at: deps.clock.now() });
      if (!updated) {
        if (payout.status !== 'CONFIRMED') throw new DomainError('PAYOUT_NOT_REFUNDABLE', { status: payout.status });
        throw new DomainError('PAYOUT_REFUND_EXCEEDS_PAYOUT', {
          remainingAmountForRefund: toBrlNumber(remainingRefundable(payout)),
        });
      }
      const now = deps.clock.now();
      const counterpart = payout.counterpart as Counterpart | null;
      const refundTx = await transactionsRepo.insert(trx, {
        transaction_id: newUuidV4(),
        account_id: accountId,
        kind: 'REFUND_OUT',
        status: 'CONFIRMED',
        origin: 'payout_refund',
        family: payout.family,
        external_id: null,
        original_amount: amount,
        fee_amount: cents(0),
        final_amount: amount,
        end_to_end_id: returnEndToEndId ?? endToEndId('D', counterpart?.bank?.bankISPB ?? deps.institutionIspb, now),
        pix_key: payout.pix_key,
        description: null,
        error_code: null,
        error_message: null,
        counterpart: JSON.stringify(counterpart),
        parent_id: payout.id,
        scenario: null,
        created_at: now,
        processed_at: now,
        updated_at: now,
      });
      const credited = await deps.ledger.creditOne(trx, { accountId, amount, transactionId: refundTx.id, reason: 'payout_refund', counter: deps.networkAccount });
      if (!credited.ok) throw new Error(`payout refund credit: ${credited.error}`);
      const remaining = remainingRefundable(updated);
      await deps.outbox.emit(trx, {
        accountId,
        type: 'refund_out',
        transactionId: refundTx.id,
        payload: transactionEvent('CashOutReversal', refundTx, { parentTransaction: parentTransaction(updated, remaining) }),
      });
      return refundTx;
    });
  }
  return { refund };
}
