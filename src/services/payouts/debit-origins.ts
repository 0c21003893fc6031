import type { BlockOrigin, DebitKind, DebitOrigin } from '../../domain/closed-lists.ts';

export type { BlockOrigin, DebitOrigin } from '../../domain/closed-lists.ts';

/**
 * The admission rules of each origin of a debit, as data (issue 22 item 3): every debit (payouts,
 * refunds and devoluções, split payouts, MED returns) goes through the one admission
 * (`payout-admission.ts`, `admit_payouts`), which reads these per item: balance, limits where they
 * apply, duplicates (the `(account, externalId)` index, for the origins that carry an externalId), the
 * hold, then the step (the network's submit job, or an on-us settlement that checks the document for
 * every origin). What each origin does when it finishes: src/services/settlement/origin-settlement.ts.
 * A MED's opening block goes through the same admission with rules of its own (BLOCK_ORIGIN_RULES below).
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
  failWith: { errorCode: string; errorMessage: string } | null;
  /**
   * A call the account makes to send money: refused with ACCOUNT_SUSPENDED while the account is
   * suspended (issue 30 item 4), decided in the admission on the account as locked. Not a split share
   * paid by a job, nor a MED return the network requires.
   */
  stopsWhenSuspended: boolean;
}

const payout = { kind: 'WITHDRAW', chargesFee: true, limited: true, holdReason: 'hold', held: false, failWith: null, stopsWhenSuspended: true } as const satisfies DebitRules;
const refund = { kind: 'REFUND_IN', chargesFee: false, limited: false, holdReason: 'refund_hold', held: false, failWith: null, stopsWhenSuspended: true } as const satisfies DebitRules;

/** One entry per debit origin (DEBIT_ORIGINS of closed-lists.ts): an origin without its rules does not compile. */
export const DEBIT_ORIGIN_RULES = {
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
    stopsWhenSuspended: false,
  },
  refund_in: refund,
  devolucao: refund,
  /** An approved MED returns what its opening blocked, settled at once (no network step). */
  med: { kind: 'REFUND_IN', chargesFee: false, limited: false, holdReason: 'med_block', held: true, failWith: null, stopsWhenSuspended: false },
} as const satisfies Record<DebitOrigin, DebitRules>;

/**
 * The admission rules of a block (BLOCK_ORIGINS): money held on a row that already exists, through the
 * same admission as every debit (its account lock, its lock order, its balance), with no row of its
 * own, no fee, no limits and no step. The admission holds min(asked, available) under the account's
 * lock, posted (available -> blocked) against that row, and answers what it held (0: nothing).
 */
export interface BlockRules {
  /** The reason of the hold's postings. */
  holdReason: string;
  /** As for a debit: refused with ACCOUNT_SUSPENDED while the account is suspended. */
  stopsWhenSuspended: boolean;
  /** What debit_item_check reads of every item: a block pays no fee and counts against no limit. */
  chargesFee: false;
  limited: false;
}

/** One entry per block origin (BLOCK_ORIGINS of closed-lists.ts): an origin without its rules does not compile. */
export const BLOCK_ORIGIN_RULES = {
  /**
   * A MED's opening block on the disputed PIX (decisions 4.6): the network's measure, not the
   * account's own action, so a suspended account's money is blocked too. Posted against the
   * original's id with reason med_block: the MED's return (origin `med`, `held`) and its release
   * settle or release it from `blocked`.
   */
  med_block: { holdReason: 'med_block', stopsWhenSuspended: false, chargesFee: false, limited: false },
} as const satisfies Record<BlockOrigin, BlockRules>;

/** The origins whose rows are payouts of the account (kind WITHDRAW): they send the cash_out event. */
export type PayoutOrigin = { [O in DebitOrigin]: (typeof DEBIT_ORIGIN_RULES)[O]['kind'] extends 'WITHDRAW' ? O : never }[DebitOrigin];
/** The origins whose rows return money to whoever paid it (kind REFUND_IN). */
export type ReturnOrigin = Exclude<DebitOrigin, PayoutOrigin>;
