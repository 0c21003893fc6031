import type { DebitKind } from '../../domain/closed-lists.ts';
/**
 * The rules of each origin of a debit, as data (issue 22 item 3): every debit (payouts, refunds and
 * devoluções, split payouts, MED returns) goes through the one admission (`payout-admission.ts`,
 * `admit_payouts`), which reads these per item: balance, limits where they apply, duplicates (the
 * `(account, externalId)` index, for the origins that carry an externalId), the hold, then the step
 * (the network's submit job, or an on-us settlement that checks the document for every origin).
 */
export interface DebitRules {
  /** The row's kind: a payout of the account, or money returned to whoever paid it. */
  kind: DebitKind;
  /** The account's cash-out fee applies (decisions 4.10: only the account's own payouts pay one). */
  chargesFee: boolean;
  /** Counts against the account's daily, night and per-transaction limits (decisions 4.7). */
  limited: boolean;
  /** The reason of the hold's postings. */
  holdReason: string;
  /** The money is already blocked (a MED blocked it when it opened): no balance check, no hold. */
  held: boolean;
  /** A debit its balance does not cover is kept as ERROR with this error (and announced) instead of refused. */
  failWith?: { errorCode: string; errorMessage: string };
}

const payout: DebitRules = { kind: 'WITHDRAW', chargesFee: true, limited: true, holdReason: 'hold', held: false };
const refund: DebitRules = { kind: 'REFUND_IN', chargesFee: false, limited: false, holdReason: 'refund_hold', held: false };

export const DEBIT_ORIGINS = {
  cash_out: payout,
  cash_out_qrcode: payout,
  dict: payout,
  /** A charge's split share: paid when the job runs; the account may have spent the money since. */
  split: {
    kind: 'WITHDRAW',
    chargesFee: false,
    limited: false,
    holdReason: 'hold',
    held: false,
    failWith: { errorCode: 'INSUFFICIENT_FUNDS', errorMessage: 'Saldo insuficiente para pagar o split.' },
  },
  refund_in: refund,
  devolucao: refund,
  /** An approved MED returns what its opening blocked, settled at once (no network step). */
  med: { kind: 'REFUND_IN', chargesFee: false, limited: false, holdReason: 'med_block', held: true },
} as const satisfies Record<string, DebitRules>;

export type DebitOrigin = keyof typeof DEBIT_ORIGINS;
