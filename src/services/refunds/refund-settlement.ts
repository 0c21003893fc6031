import type { Kysely, Transaction as Trx } from 'kysely';
import { transactionsRepo, type TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { OutgoingEvent } from '../../webhooks/outbox.ts';
import type { SettlementHook } from '../settlement/settlement-hook.ts';
import { cashInReversalEvent, refundV2Event } from './refund-events.ts';
import { refundsRepo } from './refunds.repo.ts';

/**
 * What happens when the settlement job finishes a refund, in the job's transaction (just before it moves
 * the money and the status): a rejected refund gives its reservation back to the original, then the
 * family's event is answered, to be emitted with the rest of the finished batch.
 */
export function createRefundFinisher() {
  return async function onRefundFinished(trx: Kysely<DB> | Trx<DB>, finished: TransactionRow): Promise<OutgoingEvent[]> {
    if (finished.parent_id === null) throw new Error(`refund ${finished.id} has no original`);
    const refund = await refundsRepo.byTransactionId(trx, finished.id);
    if (!refund) throw new Error(`refund ${finished.id} has no refunds row`);
    // We return the money, so the return's id (rtrId, a D end-to-end id) is ours, made when the
    // refund was asked: it replaces whatever id the network reported for the settled debit.
    const tx =
      finished.status === 'CONFIRMED'
        ? await trx.updateTable('transactions').set({ end_to_end_id: refund.rtr_id }).where('id', '=', finished.id).returningAll().executeTakeFirstOrThrow()
        : finished;
    const original =
      tx.status === 'ERROR'
        ? await refundsRepo.giveBack(trx, finished.parent_id, tx.original_amount)
        : (await transactionsRepo.byId(trx, finished.parent_id))!;
    if (tx.family === 'bacen') {
      const charge = await trx.selectFrom('charges').select('txid').where('transaction_id', '=', original.id).executeTakeFirst();
      return [{ accountId: tx.account_id, type: 'refund_in', transactionId: tx.id, payload: refundV2Event(tx, refund, original, charge?.txid ?? null) }];
    }
    return [{ accountId: tx.account_id, type: 'refund_in', transactionId: tx.id, payload: cashInReversalEvent(tx, original) }];
  };
}

/** What a refund-in or devolução does when it finishes (origin-settlement.ts). */
export const refundSettlement: SettlementHook = { onFinished: createRefundFinisher() };
