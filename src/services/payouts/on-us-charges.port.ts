import type { Transaction as Trx } from 'kysely';
import type { Cents } from '../../domain/money.ts';
import type { DB } from '../../db/schema.ts';

/**
 * Pays one of our own charges from a dynamic BR Code whose location is ours
 * (`${publicHost}/qr/v2/...`), inside the payer's database transaction (decisions 4.11). The
 * charges feature provides it (container property `onUsCharges`). The payer's debit is the payouts feature's; the implementation
 * credits the receiver (its "Pix in", the charge CONFIRMED, its cash_in event).
 */
export interface OnUsCharges {
  /**
   * Locks the charge at this location and names the account it pays, before the payer's admission
   * locks any account (the one lock order: charge rows, then limit counters, then accounts in id
   * order; the receiver is locked with the payer). Undefined when the location is not one of ours.
   */
  lockForPayment(trx: Trx<DB>, url: string): Promise<{ accountId: number } | undefined>;
  payByLocation(
    trx: Trx<DB>,
    input: {
      url: string;
      amount: Cents | undefined;
      payerAccountId: number;
      payer: { name: string; document: string; ispb: string };
      endToEndId: string;
    },
  ): Promise<
    | { ok: true; receiverTransactionId: number; amount: Cents }
    | { ok: false; reason: 'NOT_FOUND' | 'NOT_PAYABLE' | 'AMOUNT_MISMATCH' }
  >;
}
