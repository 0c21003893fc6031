import { maskDocument } from '../../domain/documents.ts';
import { toDecimalString } from '../../domain/money.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Counterpart } from '../../db/schema.ts';
import { transactionEvent } from '../../webhooks/payloads/transaction-event.ts';
import type { SettlementHook } from '../settlement/settlement-hook.ts';
import type { PayoutOrigin } from './debit-origins.ts';
import { LIMITED_ORIGINS, releasePayoutLimits } from './limits.ts';

/** The version-2 TRANSFER body of a direct transfer (`POST /dict/pix`), sent to the cash_out URLs. */
export function transferEvent(tx: TransactionRow) {
  const meta = (tx.metadata ?? {}) as Record<string, unknown>;
  const cp = tx.counterpart as Counterpart | null;
  return {
    type: 'TRANSFER',
    data: {
      id: tx.id,
      txId: null,
      pixKey: tx.pix_key,
      status: tx.status === 'CONFIRMED' ? 'LIQUIDATED' : 'ERROR',
      payment: { amount: toDecimalString(tx.original_amount), currency: 'BRL' },
      endToEndId: tx.end_to_end_id,
      creditDebitType: 'DEBIT',
      idempotencyKey: meta.idempotencyKey ?? null,
      creditorAccount: { name: cp?.name ?? null, document: cp?.document ? maskDocument(cp.document) : null, ispb: cp?.bank?.bankISPB ?? null },
      remittanceInformation: tx.description,
      ...(tx.status === 'ERROR' ? { errorCode: tx.error_code, errorMessage: tx.error_message } : {}),
    },
  };
}

/** The body of each payout origin's cash_out event: one entry per origin of kind WITHDRAW, or it does not compile. */
const payloadOf: Record<PayoutOrigin, (tx: TransactionRow) => Record<string, unknown>> = {
  cash_out: (tx) => transactionEvent('CashOut', tx),
  cash_out_qrcode: (tx) => transactionEvent('CashOut', tx),
  split: (tx) => transactionEvent('CashOut', tx),
  dict: transferEvent,
};

/**
 * What payouts do when they finish: the cash_out event, and a rejected payout stops counting against
 * limits. One hook object for every payout origin (origin-settlement.ts), so a settlement batch gives
 * back all its limits in one statement (in the counters' key order).
 */
export const payoutSettlement: SettlementHook = {
  async onFinished(_trx, tx) {
    return [{ accountId: tx.account_id, type: 'cash_out', transactionId: tx.id, payload: payloadOf[tx.origin as PayoutOrigin](tx) }];
  },
  async onBatchFinished(trx, rows) {
    const rejected = rows.filter((tx) => tx.status === 'ERROR' && LIMITED_ORIGINS.has(tx.origin));
    await releasePayoutLimits(trx, rejected.map((tx) => ({ accountId: tx.account_id, amount: tx.original_amount, admittedAt: tx.created_at })));
  },
};
