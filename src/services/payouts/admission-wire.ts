import { ADMISSION_OUTCOMES, type AdmissionOutcome, type BlockOrigin, type DebitOrigin, type TransactionFamily } from '../../domain/closed-lists.ts';
import { cents, type Cents } from '../../domain/money.ts';
import { transactionFromJson, type TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Counterpart } from '../../db/schema.ts';
import type { PaymentStepPayload } from '../settlement/payment-order.ts';
import { BLOCK_ORIGIN_RULES, DEBIT_ORIGIN_RULES } from './debit-origins.ts';

/*
 * The debit admission's two ends as `admit_payouts` (src/db/functions/admit_payouts.sql) sees them:
 * the items it is given (one JSON array) and the rows it answers. Typed both ways here, and the
 * answer parsed here only: the rest of the admission works on these unions.
 */

/** The columns of the row an item stores (admit_payouts inserts them as given). */
export interface AdmissionRowColumns<O extends DebitOrigin = DebitOrigin> {
  transaction_id: string;
  origin: O;
  family: TransactionFamily;
  external_id: string | null;
  end_to_end_id: string | null;
  parent_id: number | null;
  pix_key: string | null;
  description: string | null;
  counterpart: Counterpart;
  metadata: Record<string, unknown>;
  scenario: string | null;
}

type RulesOf<O extends DebitOrigin> = (typeof DEBIT_ORIGIN_RULES)[O];
/** The origin's rules as the item carries them (admit_payouts reads them per item). */
type RuleFields<O extends DebitOrigin> = Pick<RulesOf<O>, 'kind' | 'limited' | 'chargesFee' | 'holdReason' | 'held' | 'failWith' | 'stopsWhenSuspended'>;

/** One item of one origin: what the request asks, and its origin's rules. */
export type AdmissionItemOf<O extends DebitOrigin> = RuleFields<O> & {
  /** Its place in the batch: the answer row with this idx is its answer. */
  idx: number;
  accountId: number;
  /** The receiving account of an on-us payout (locked with the payer, in id order); else null. */
  receiverId: number | null;
  amount: Cents;
  tx: AdmissionRowColumns<O>;
  /** A network payout's submit step (the function writes it with the row's id); null for on-us. */
  job: Omit<PaymentStepPayload, 'id'> | null;
};

type ItemsByOrigin = { [O in DebitOrigin]: AdmissionItemOf<O> };
/** An item of the admission: a union over the debit origins, each with its own origin's rules. */
export type AdmissionItem = ItemsByOrigin[DebitOrigin];

/** Builds the item of one origin: its rules come from DEBIT_ORIGIN_RULES, never from the caller. */
export function admissionItem<O extends DebitOrigin>(
  origin: O,
  request: Omit<AdmissionItemOf<O>, keyof RuleFields<O> | 'tx'> & { tx: Omit<AdmissionRowColumns<O>, 'origin'> },
): ItemsByOrigin[O] {
  const { kind, limited, chargesFee, holdReason, held, failWith, stopsWhenSuspended }: RuleFields<O> = DEBIT_ORIGIN_RULES[origin];
  const item = { ...request, kind, limited, chargesFee, holdReason, held, failWith, stopsWhenSuspended, tx: { ...request.tx, origin } } satisfies AdmissionItemOf<O>;
  // ItemsByOrigin[O] is AdmissionItemOf<O> by its definition; TypeScript does not follow a generic
  // index through the mapped type, so it is said once here (the object itself is checked just above).
  return item as ItemsByOrigin[O];
}

type BlockRulesOf<O extends BlockOrigin> = (typeof BLOCK_ORIGIN_RULES)[O];

/**
 * One block of one origin (BLOCK_ORIGINS): money held on a row that already exists, with no row of
 * its own (admit_payouts inserts none, writes no step, counts no limit). Told from a debit item by
 * its `block`; its rules come from BLOCK_ORIGIN_RULES.
 */
export type AdmissionBlockItemOf<O extends BlockOrigin> = BlockRulesOf<O> & {
  idx: number;
  accountId: number;
  receiverId: null;
  /** The most to hold: the admission holds min(amount, available) under the account's lock. */
  amount: Cents;
  /** The block's origin, and the row (`transactions.id`) its hold is posted against. */
  block: { origin: O; transactionId: number };
};
/** A block item of any block origin. */
export type AdmissionBlockItem = { [O in BlockOrigin]: AdmissionBlockItemOf<O> }[BlockOrigin];

/** Builds the block item of one origin: its rules come from BLOCK_ORIGIN_RULES, never from the caller. */
export function admissionBlockItem<O extends BlockOrigin>(origin: O, request: { idx: number; accountId: number; amount: Cents; transactionId: number }): AdmissionBlockItemOf<O> {
  const rules: BlockRulesOf<O> = BLOCK_ORIGIN_RULES[origin];
  return { ...rules, idx: request.idx, accountId: request.accountId, receiverId: null, amount: request.amount, block: { origin, transactionId: request.transactionId } };
}

/** The refusals the admission answers (every outcome but the two that store a row and a block's). */
export type AdmissionRefusal = Exclude<AdmissionOutcome, 'admitted' | 'failed' | 'blocked'>;
/** The limit refusals (they carry the limit): PIX_TRANSACTION_, PIX_DAILY_ and PIX_NIGHT_LIMIT_EXCEEDED. */
type LimitRefusal = Extract<AdmissionRefusal, `PIX_${string}_LIMIT_EXCEEDED`>;

/** One answer of the admission, parsed: a stored row, or a refusal with its details. */
export type AdmissionAnswer =
  /** Admitted and held (a network payout's submit step is written too). */
  | { outcome: 'admitted'; tx: TransactionRow }
  /** Kept as ERROR by its origin's rule (`failWith`): nothing held, to be announced. */
  | { outcome: 'failed'; tx: TransactionRow }
  /** A block item's answer: what was held (0 when nothing was available: nothing posted). */
  | { outcome: 'blocked'; amount: Cents }
  | { outcome: LimitRefusal; limit: Cents | undefined }
  | { outcome: 'DUPLICATE'; existingTransactionId: string | undefined }
  | { outcome: Exclude<AdmissionRefusal, LimitRefusal | 'DUPLICATE'> };

/** A row as `admit_payouts` answers it (`RETURNS TABLE (idx int, outcome text, detail jsonb, tx jsonb)`). */
export interface AdmissionAnswerRow {
  idx: number;
  outcome: string;
  detail: { limit?: number; existingTransactionId?: string; amount?: number } | null;
  tx: Record<string, unknown> | null;
}

const isOutcome = (value: string): value is AdmissionOutcome => (ADMISSION_OUTCOMES as readonly string[]).includes(value);

/** THE parse of the admission's answer: an outcome outside ADMISSION_OUTCOMES, or a row without its stored row, is an error here. */
export function parseAdmissionAnswer(row: AdmissionAnswerRow): AdmissionAnswer {
  const outcome = row.outcome;
  if (!isOutcome(outcome)) throw new Error(`admit_payouts answered an unknown outcome: ${outcome}`);
  switch (outcome) {
    case 'admitted':
    case 'failed':
      if (!row.tx) throw new Error(`admit_payouts answered ${outcome} without its row (item ${row.idx})`);
      return { outcome, tx: transactionFromJson(row.tx) };
    case 'blocked':
      if (typeof row.detail?.amount !== 'number') throw new Error(`admit_payouts answered blocked without its amount (item ${row.idx})`);
      return { outcome, amount: cents(row.detail.amount) };
    case 'PIX_TRANSACTION_LIMIT_EXCEEDED':
    case 'PIX_DAILY_LIMIT_EXCEEDED':
    case 'PIX_NIGHT_LIMIT_EXCEEDED':
      return { outcome, limit: row.detail?.limit === undefined ? undefined : cents(row.detail.limit) };
    case 'DUPLICATE':
      return { outcome, existingTransactionId: row.detail?.existingTransactionId };
    case 'NOT_FOUND':
    case 'ACCOUNT_SUSPENDED':
    case 'PIX_INVALID_AMOUNT':
    case 'INSUFFICIENT':
    case 'BUSY':
      return { outcome };
    default:
      return unreachable(outcome);
  }
}

/** An exhaustive switch's default: a case left out is a compile error (its value is not `never`). */
export function unreachable(value: never): never {
  throw new Error(`unhandled case: ${String(value)}`);
}
