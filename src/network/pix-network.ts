import type { DictKey } from '../domain/pix-keys.ts';
import type { Cents } from '../domain/money.ts';
import type { NetworkClearingAccount } from '../ledger/chart.ts';
import type { InfractionSink } from './infractions.ts';

/**
 * The PIX network as the services see it: the key directory, outgoing payments and their outcomes.
 * The sandbox simulator is one adapter; a real provider would be another. Services never know
 * which one they talk to.
 */

/** Who a key belongs to, as the directory answers it. */
export interface KeyHolder {
  name: string;
  document: string;
  bank: { ispb: string; name: string; code: string | null };
  branch: string | null;
  account: string | null;
}

export type KeyLookup = { found: true; holder: KeyHolder } | { found: false };

/** An outgoing payment, as handed to the network (after the money is held). */
export interface OutgoingPayment {
  /** Our numeric transaction id: the network's reference for the payment. */
  transactionId: number;
  amount: Cents;
  /** The destination key in DICT form, when paid by key. */
  key: DictKey | null;
  /** The document the payer says the holder has (checked by the receiving bank). */
  creditorDocument: string | null;
  /** The holder's document as the directory answered it when the payment was ordered. */
  holderDocument: string | null;
  /** The receiving institution, when known (counterpart of a BR Code or a looked-up key). */
  creditorIspb: string | null;
  /** The sandbox scenario stored with the transaction (null outside the sandbox). */
  scenario: string | null;
  submittedAt: Date;
}

/** What happened to a submitted payment. An unknown provider status is `pending`, never success. */
export type PaymentOutcome =
  | { status: 'settled'; endToEndId: string }
  | { status: 'rejected'; errorCode: string; errorMessage: string }
  | { status: 'pending'; checkAgainAt: Date };

export interface PixNetwork {
  /** This network's settlement clearing account in the ledger's chart (money out and in through it). */
  readonly ledgerAccount: NetworkClearingAccount;
  /**
   * Who holds a key. `hint` is what the payer claims (a simulator may echo it for holders it
   * invents); a real directory ignores it.
   */
  lookupKey(key: DictKey, hint?: { name?: string | null; document?: string | null }): Promise<KeyLookup>;
  /** Hands the payment over; answers when its outcome will be known (when to ask `outcome`). */
  submit(payment: OutgoingPayment): Promise<{ outcomeAt: Date }>;
  outcome(payment: OutgoingPayment): Promise<PaymentOutcome>;
  /**
   * Where infraction notices (MEDs other banks open against PIX we received) go: the adapter calls
   * the sink whenever the network reports one or moves one along.
   */
  subscribeInfractions(sink: InfractionSink): void;
}
