import { maskDocument } from '../../domain/documents.ts';
import { toDecimalString } from '../../domain/money.ts';
import type { Counterpart } from '../../db/schema.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import { transactionEvent } from '../../webhooks/payloads/transaction-event.ts';
import type { ChargeRow } from './charges.repo.ts';

/** The version-2 RECEIVE envelope of a paid cob (interface spec, version-2 webhooks). */
export function receiveEvent(charge: ChargeRow, tx: TransactionRow) {
  const payer = tx.counterpart as Counterpart | null;
  return {
    type: 'RECEIVE',
    data: {
      id: tx.id,
      txId: charge.txid,
      status: 'LIQUIDATED',
      payment: { amount: toDecimalString(tx.original_amount), currency: 'BRL' },
      endToEndId: tx.end_to_end_id,
      debtorAccount: { name: payer?.name ?? null, document: payer?.document ? maskDocument(payer.document) : null },
    },
  };
}

/** The body of a charge's `cash_in` event: CashIn for a cash-in, RECEIVE for a paid cob. */
export function chargeEventPayload(charge: ChargeRow, tx: TransactionRow): Record<string, unknown> {
  return charge.kind === 'cob' ? receiveEvent(charge, tx) : transactionEvent('CashIn', tx);
}
