import { DEBIT_ORIGINS, type DebitOrigin } from '../../domain/closed-lists.ts';
import { medReturnSettlement } from '../med/med-settlement.ts';
import { payoutSettlement } from '../payouts/payout-events.ts';
import { refundSettlement } from '../refunds/refund-settlement.ts';
import type { SettlementHook } from './settlement-hook.ts';

/**
 * Each debit origin's settlement rules (issue 28 item 5): what runs when its payment settled or was
 * rejected. One table over the closed list of origins (DEBIT_ORIGINS of closed-lists.ts), so an origin
 * without its entry does not compile; its admission rules are the table beside it
 * (src/services/payouts/debit-origins.ts). Every payout origin shares one hook object, so a finished
 * batch gives back all its payouts' limits in one statement (in the counters' key order).
 */
export const ORIGIN_SETTLEMENT = {
  cash_out: payoutSettlement,
  cash_out_qrcode: payoutSettlement,
  dict: payoutSettlement,
  split: payoutSettlement,
  refund_in: refundSettlement,
  devolucao: refundSettlement,
  /** An approved MED's return, settled at once against its clearing account. */
  med: medReturnSettlement,
} as const satisfies Record<DebitOrigin, SettlementHook>;

/** The settlement rules of a stored row's origin (`transactions.origin`, text): a debit origin's, or an error naming it. */
export function settlementOf(origin: string): SettlementHook {
  if (!(DEBIT_ORIGINS as readonly string[]).includes(origin)) throw new Error(`no settlement rules for origin "${origin}": not a debit origin`);
  return ORIGIN_SETTLEMENT[origin as DebitOrigin];
}
