import { toBrlNumber, toDecimalString } from '../../domain/money.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import { parentTransaction, transactionEvent } from '../../webhooks/payloads/transaction-event.ts';
import type { RefundRow } from './refunds.repo.ts';
import { remainingRefundable } from './refund-rules.ts';

/**
 * `refund_in` of the public family (decisions 5): `CashInReversal` with the original as
 * `parentTransaction`. Pending refunds count as refunded: their amount is reserved.
 */
export function cashInReversalEvent(tx: TransactionRow, original: TransactionRow) {
  const remaining = remainingRefundable(original);
  return transactionEvent('CashInReversal', tx, { parentTransaction: parentTransaction(original, remaining) });
}

/**
 * The version-2 REFUND of the compatible family (interface spec, Version-2 webhooks): the original
 * PIX with the refund that just finished. A failed devolucao (NAO_REALIZADO), which the spec does not
 * describe, is reported in the same envelope with status `ERROR` and the reason.
 */
export function refundV2Event(tx: TransactionRow, refund: RefundRow, original: TransactionRow, txId: string | null) {
  const settled = tx.status === 'CONFIRMED';
  return {
    type: 'REFUND',
    data: {
      id: original.id,
      txId,
      status: settled ? 'REFUNDED' : 'ERROR',
      payment: { amount: toDecimalString(original.original_amount), currency: 'BRL' },
      refunds: [
        {
          id: refund.refund_id,
          status: settled ? 'LIQUIDATED' : 'ERROR',
          payment: { amount: toBrlNumber(tx.original_amount), currency: 'BRL' },
          endToEndId: refund.rtr_id,
          eventDate: (tx.processed_at ?? tx.updated_at).toISOString(),
          information: refund.description,
          ...(settled ? {} : { errorCode: tx.error_code, errorMessage: tx.error_message }),
        },
      ],
      endToEndId: original.end_to_end_id,
      creditDebitType: 'DEBIT',
    },
  };
}
