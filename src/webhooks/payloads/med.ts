import { Type, type Static } from '@sinclair/typebox';
import { MED_ANALYSIS_RESULTS, MED_REASONS, MED_STATUSES } from '../../domain/closed-lists.ts';

/** A closed list as the union of literals it always was in the payload's schema (the payloads import nothing of the HTTP layer). */
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
