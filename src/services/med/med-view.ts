import { maskDocument } from '../../domain/documents.ts';
import { toBrlNumber } from '../../domain/money.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Counterpart } from '../../db/schema.ts';
import type { MedRow } from './meds.repo.ts';
import { Med, type MedView } from '../../webhooks/payloads/med.ts';

/** The MED payload's schema lives with the other event payloads; answers use the same one. */
export { Med, type MedView };

/** The MED as answered and as sent in `med_*` events. */
export function medView(med: MedRow, original: TransactionRow | undefined, contestedBank: { ispb: string; name: string }): MedView {
  const counterpart = original?.counterpart as Counterpart | null | undefined;
  return {
    id: med.id,
    endToEnd: med.end_to_end_id,
    status: med.status,
    reason: med.reason,
    cause: med.cause,
    description: med.description,
    analysisResult: med.analysis_result,
    analysisDetails: med.analysis_details,
    requestingBank: { ispb: med.requesting_bank_ispb, name: med.requesting_bank_name },
    contestedBank,
    transaction: original
      ? {
          amount: toBrlNumber(original.original_amount),
          type: 'PIX',
          transactionType: 'CASH_IN',
          name: counterpart?.name ?? null,
          document: counterpart?.document ? maskDocument(counterpart.document) : null,
          dateTime: (original.processed_at ?? original.created_at).toISOString(),
        }
      : null,
    isReconciled: med.original_id !== null,
    originalTransactionId: med.original_id,
    createdAt: med.created_at.toISOString(),
    updatedAt: med.updated_at.toISOString(),
  };
}
