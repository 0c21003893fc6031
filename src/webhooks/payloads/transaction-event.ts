import { maskDocument } from '../../domain/documents.ts';
import { toBrlNumber, type Cents } from '../../domain/money.ts';
import type { Counterpart } from '../../db/schema.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';

import { DEBIT_KINDS, type TransactionEventName } from '../../domain/closed-lists.ts';
export type { TransactionEventName } from '../../domain/closed-lists.ts';

/** A debit kind (DEBIT_KINDS) moves money out of the account; every other kind brings it in. */
export const movementOf = (kind: TransactionRow['kind']): 'CREDIT' | 'DEBIT' => ((DEBIT_KINDS as readonly string[]).includes(kind) ? 'DEBIT' : 'CREDIT');

/** The counterpart as shown outside: the document masked, missing bank fields as null. */
export function publicCounterpart(counterpart: Counterpart | null) {
  return {
    name: counterpart?.name ?? null,
    document: counterpart?.document ? maskDocument(counterpart.document) : null,
    bank: {
      bankISPB: counterpart?.bank?.bankISPB ?? null,
      bankName: counterpart?.bank?.bankName ?? null,
      bankCode: counterpart?.bank?.bankCode ?? null,
      accountBranch: counterpart?.bank?.accountBranch ?? null,
      accountNumber: counterpart?.bank?.accountNumber ?? null,
    },
  };
}

/**
 * The provider's transaction webhook body (`CashOut` of the interface spec; `CashIn` and the two
 * reversals share its shape, decisions section 5). Reversals add `parentTransaction`.
 */
export function transactionEvent(event: TransactionEventName, tx: TransactionRow, extra: Record<string, unknown> = {}) {
  return {
    event,
    status: tx.status,
    transactionType: 'PIX',
    movementType: movementOf(tx.kind),
    transactionId: tx.transaction_id,
    externalId: tx.external_id,
    endToEndId: tx.end_to_end_id,
    pixKey: tx.pix_key,
    feeAmount: toBrlNumber(tx.fee_amount),
    originalAmount: toBrlNumber(tx.original_amount),
    finalAmount: toBrlNumber(tx.final_amount),
    processingDate: (tx.processed_at ?? tx.updated_at).toISOString(),
    errorCode: tx.status === 'ERROR' ? tx.error_code : null,
    errorMessage: tx.status === 'ERROR' ? tx.error_message : null,
    counterpart: publicCounterpart(tx.counterpart as Counterpart | null),
    metadata: (tx.metadata as Record<string, unknown>) ?? {},
    ...extra,
  };
}

/**
 * `parentTransaction` of the reversal events (decisions section 5): the original payment and what is
 * still refundable of it after this reversal.
 */
export function parentTransaction(original: TransactionRow, remaining: Cents) {
  return {
    transactionId: original.transaction_id,
    externalId: original.external_id,
    endToEndId: original.end_to_end_id,
    processingDate: (original.processed_at ?? original.created_at).toISOString(),
    wasTotalRefunded: remaining === 0,
    remainingAmountForRefund: toBrlNumber(remaining),
    metadata: (original.metadata as Record<string, unknown>) ?? {},
    counterpart: publicCounterpart(original.counterpart as Counterpart | null),
  };
}
