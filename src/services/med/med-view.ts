import { Type, type Static } from '@sinclair/typebox';
import { maskDocument } from '../../domain/documents.ts';
import { toBrlNumber } from '../../domain/money.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Counterpart } from '../../db/schema.ts';
import type { MedRow } from './meds.repo.ts';
import { MED_ANALYSIS_RESULTS, MED_REASONS, MED_STATUSES } from '../../domain/closed-lists.ts';

/** A closed list as the union of literals it always was in the payload's schema (no import of the HTTP layer). */
const OneOf = <const T extends readonly string[]>(values: T) => Type.Unsafe<T[number]>(Type.Union(values.map((value) => Type.Literal(value))));
const OneOfOrNull = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number] | null>(Type.Union([...values.map((value) => Type.Literal(value)), Type.Null()]));

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Bank = Type.Object({ ispb: Type.String(), name: Type.String() });

/** The MED resource of the interface spec (the field it calls "the service" is `transaction`, decisions 4.6). */
export const Med = Type.Object(
  {
    id: Type.Number(),
    endToEnd: Type.String(),
    status: OneOf(MED_STATUSES),
    reason: OneOf(MED_REASONS),
    cause: Nullable(Type.String()),
    description: Nullable(Type.String()),
    analysisResult: OneOfOrNull(MED_ANALYSIS_RESULTS),
    analysisDetails: Nullable(Type.String()),
    requestingBank: Bank,
    contestedBank: Bank,
    transaction: Type.Union([
      Type.Object({
        amount: Type.Number(),
        type: Type.String(),
        transactionType: Type.String(),
        name: Type.Union([Type.String(), Type.Null()]),
        document: Type.Union([Type.String(), Type.Null()]),
        dateTime: Type.String(),
      }),
      Type.Null(),
    ]),
    isReconciled: Type.Boolean(),
    originalTransactionId: Type.Union([Type.Number(), Type.Null()]),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { $id: 'Med' },
);
export type MedView = Static<typeof Med>;

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
