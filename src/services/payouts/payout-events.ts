import type { Transaction as Trx } from 'kysely';
import { maskDocument } from '../../domain/documents.ts';
import { toDecimalString } from '../../domain/money.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Counterpart, DB } from '../../db/schema.ts';
import type { OutgoingEvent } from '../../webhooks/outbox.ts';
import { transactionEvent } from '../../webhooks/payloads/transaction-event.ts';
import type { Settlement } from '../settlement/settlement.service.ts';
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

/** What payouts do when they finish: the cash_out event, and a rejected payout stops counting against limits. */
export function registerPayoutHooks(deps: { settlement: Pick<Settlement, 'registerHook'> }) {
  const finished = (payload: (tx: TransactionRow) => Record<string, unknown>) => ({
    async onFinished(trx: Trx<DB>, tx: TransactionRow): Promise<OutgoingEvent[]> {
      if (tx.status === 'ERROR' && LIMITED_ORIGINS.has(tx.origin)) {
        await releasePayoutLimits(trx, tx.account_id, tx.original_amount, tx.created_at);
      }
      return [{ accountId: tx.account_id, type: 'cash_out', transactionId: tx.id, payload: payload(tx) }];
    },
  });
  const cashOut = (tx: TransactionRow) => transactionEvent('CashOut', tx);
  deps.settlement.registerHook('cash_out', finished(cashOut));
  deps.settlement.registerHook('cash_out_qrcode', finished(cashOut));
  deps.settlement.registerHook('split', finished(cashOut));
  deps.settlement.registerHook('dict', finished(transferEvent));
}
