import type { DictKey } from '../domain/pix-keys.ts';
import type { ChargeKind } from '../domain/closed-lists.ts';
import type { Cents } from '../domain/money.ts';
import type { Payer } from '../domain/payer.ts';
import type { NetworkClearingAccount } from '../ledger/chart.ts';
import type { InfractionNotice, InfractionNoticeUpdate } from './infractions.ts';

/**
 * The PIX network as the services see it: every conversation with the outside goes through here
 * (the key directory, payments out, charges and the money that pays them, refunds both ways, MED
 * notices, and status queries for reconciliation). The sandbox simulator is one adapter; a provider
 * adapter is another. Services never know which one they talk to, and never call it inside a
 * database transaction: payments are submitted and queried from step jobs (src/jobs/steps.ts).
 */

/** Who a key belongs to, as the directory answers it. Null parts: the directory does not say. */
export interface KeyHolder {
  name: string | null;
  document: string | null;
  bank: { ispb: string | null; name: string | null; code: string | null };
  branch: string | null;
  account: string | null;
}

/**
 * What the network can say of a key before paying it; one meaning in every adapter.
 * `documentRequired`: a payment to this key needs its holder's CPF or CNPJ from the payer (the network
 * cannot find it, and its payments carry it: a provider's cash-out requires `details.document`).
 */
export type KeyLookup =
  /** The directory knows the key, and its holder as far as it says. */
  | { status: 'found'; holder: KeyHolder; documentRequired: boolean }
  /** The directory says the key does not exist: nothing can be paid to it. */
  | { status: 'not_found' }
  /**
   * The network has no directory to ask before paying (a provider whose API has no key look-up):
   * the key may exist or not, and its holder is unknown. The payment tells: settled, it names who
   * received it (`PaymentStatus.payee`); refused, it ends with the network's code.
   */
  | { status: 'unknown_holder'; documentRequired: boolean };

/** Who received a settled payment, as far as the network reports it (documents may come masked). */
export interface PayeeReport {
  name: string | null;
  document: string | null;
  bank: { ispb: string | null; name: string | null; code: string | null };
}

/** Where a payment goes. */
export type Payee =
  /** A key; `document` is what the payer says the holder has (checked by the receiving bank). */
  | {
      by: 'key';
      key: DictKey;
      document: string | null;
      holderDocument: string | null;
      ispb: string | null;
      /** The holder's name as the payer typed it (informational; a provider's API asks for it). */
      name?: string | null;
    }
  /** A BR Code: the whole code (a dynamic one names its location), what it says, and who the payer says it is. */
  | {
      by: 'qr_code';
      qrCode: string;
      location: string | null;
      key: DictKey | null;
      ispb: string | null;
      document: string | null;
      name: string | null;
      /** The holder's document as the directory answered it (a static code's key). */
      holderDocument: string | null;
    }
  /** Back to whoever paid a PIX we received (a refund of it). */
  | { by: 'refund'; originalEndToEndId: string; reason: string | null };

/** A payment handed to the network: our reference is its idempotency key. */
export interface PaymentOrder {
  /** Our transaction's public id (UUID): the network deduplicates by it, so a retried submission never pays twice. */
  reference: string;
  kind: 'payout' | 'refund';
  amount: Cents;
  description: string | null;
  payee: Payee;
  /** When our customer ordered it. */
  orderedAt: Date;
  /** Not done by then: the network rejects it with PAYMENT_EXPIRED (`POST /dict/pix` `expiration`). */
  expiresAt: Date | null;
  /** The sandbox scenario stored with the transaction (null outside the sandbox). */
  scenario: string | null;
  /** The W3C trace of the request that ordered it: every call about this order carries it (issue 31 item 4). */
  trace?: { traceId: string; flags: string } | undefined;
}

/** The network's answer to a submission. */
export type SubmitAnswer =
  /** Taken: the outcome comes by notice, or by asking again at `checkAt`. */
  | { status: 'accepted'; checkAt: Date }
  /** Refused for good: nothing was or will be paid. */
  | { status: 'rejected'; errorCode: string; errorMessage: string }
  /** No answer we can trust (timeout, 5xx, connection lost): it may have been taken; ask its status. */
  | { status: 'unknown'; reason: string; retryAt: Date };

/** Where a payment stands at the network. An unknown provider status is `pending`, never success. */
export type PaymentStatus =
  /** `payee`: who received it, when the network tells (fills what the key look-up could not). */
  | { status: 'settled'; endToEndId: string; payee?: PayeeReport }
  | { status: 'rejected'; errorCode: string; errorMessage: string }
  | { status: 'pending'; checkAt: Date }
  /** The network never received it: submitting it again is safe. */
  | { status: 'not_found' }
  | { status: 'unknown'; reason: string; retryAt: Date };

/** A charge (a dynamic QR code) registered with the network so that payers can pay it. */
export interface ChargeOrder {
  /** Our charge transaction's public id (UUID): the network's idempotency key and the notices' reference. */
  reference: string;
  kind: ChargeKind;
  txid: string;
  amount: Cents;
  /** The payer may pay another amount (cob `modalidadeAlteracao` 1). */
  amountChangeable: boolean;
  expiresAt: Date;
  expirationSeconds: number;
  description: string | null;
  receiver: { accountId: number; key: string; name: string; document: string };
  payer: { name: string; document: string } | null;
  /** Where our own copy of the charge is served (`/qr/v2/{locationId}`). */
  locationId: string;
  scenario: string | null;
}

export interface RegisteredCharge {
  /** The copy-and-paste EMV code payers use. */
  pixCode: string;
}

/** Money that arrived: a charge paid, a PIX to a key, a payout returned. */
export type { Payer };

export interface ChargePaidNotice {
  /** The charge: our reference (provider), or the account and the id a sandbox caller named. */
  charge: { reference: string } | { accountId: number; id: string };
  /** The amount paid; the charge's when absent. */
  amount?: Cents;
  payer: Payer;
  endToEndId?: string;
}

export interface PixReceivedNotice {
  /** Whose key it was sent to, when the network can tell (the sandbox names the account). */
  accountId: number;
  amount: Cents;
  payer: Payer;
  endToEndId?: string;
  /**
   * Money the simulator creates (a sandbox deposit): in the books it comes from the outside world
   * (`world`), not from the network's clearing account.
   */
  minted?: boolean;
}

/** The receiving bank returned (part of) one of our payouts. */
export interface PayoutReturnedNotice {
  /**
   * The payout: the account and any identifier it knows the payout by (the simulator's caller names
   * them), or our reference alone (a provider knows our payouts by their references only).
   */
  payout: { accountId: number; id: string } | { reference: string };
  amount: Cents;
  /** The return's own end-to-end id, when the network gives one: the same return is credited once. */
  endToEndId?: string | null;
}

/** Money that reached the network's pooled account and names no charge we can credit: held in suspense. */
export interface UnroutedPixNotice {
  amount: Cents;
  payer: Payer;
  endToEndId: string;
  /** The network's id of the PIX it received. */
  providerTransactionId: string | null;
  /** Why it is not credited to a customer: `no_charge`, `charge_not_payable`, `charge_never_stored`, ... */
  reason: string;
  /** The charge it named, if it named one. */
  chargeReference: string | null;
}

/**
 * What arrives from the network on its own initiative, whichever adapter sends it: one sink, which
 * the container subscribes once. Each adapter sends the notices it has words for (a simulator names
 * accounts, a provider only our references and end-to-end ids); the sink finds what each concerns.
 * Each handler is idempotent per notice. `Receipt`: what a handler of money moving answers (the
 * transaction it wrote), which the simulator's routes show their caller.
 */
export interface NetworkSink<Receipt = unknown> {
  onPaymentOutcome(reference: string, outcome: Extract<PaymentStatus, { status: 'settled' | 'rejected' }>): Promise<unknown>;
  onChargePaid(notice: ChargePaidNotice): Promise<Receipt>;
  /** The payer of a charge was refused by the network: the charge ends unpaid. */
  onChargeRejected(reference: string, errorCode: string, errorMessage: string): Promise<unknown>;
  onPixReceived(notice: PixReceivedNotice): Promise<Receipt>;
  onUnroutedPix(notice: UnroutedPixNotice): Promise<unknown>;
  /** Undefined: not a payout of ours (nothing changed). */
  onPayoutReturned(notice: PayoutReturnedNotice): Promise<Receipt | undefined>;
  /** Undefined: no account of ours received that PIX (nothing opened). */
  onInfractionReported(notice: InfractionNotice): Promise<unknown>;
  /** Undefined: an infraction we never opened, or one already moved there. */
  onInfractionUpdated(update: InfractionNoticeUpdate): Promise<unknown>;
}

export interface PixNetwork {
  /** This network's settlement clearing account in the ledger's chart (money out and in through it). */
  readonly ledgerAccount: NetworkClearingAccount;
  /** The network's own rules for charges (`PIX_PROVIDER_EXPIRATION_BELOW_MINIMUM`). */
  readonly chargeRules: { provider: string; minExpirationSeconds: number };
  /**
   * Who holds a key. `hint` is what the payer claims (a simulator may echo it for holders it
   * invents); a real directory ignores it.
   */
  lookupKey(key: DictKey, hint?: { name?: string | null; document?: string | null }): Promise<KeyLookup>;
  /** Hands payments over, one answer each. Safe to repeat: the network deduplicates by reference. */
  submitPayments(orders: PaymentOrder[]): Promise<SubmitAnswer[]>;
  /** Where each payment stands (reconciliation). */
  paymentStatuses(orders: PaymentOrder[]): Promise<PaymentStatus[]>;
  /** Registers a charge; throws PROVIDER_UNAVAILABLE (nothing stored) when the network cannot be reached. */
  registerCharge(order: ChargeOrder): Promise<RegisteredCharge>;
  /** Where notices (payment outcomes, money received, MED) go; the container subscribes the services. */
  subscribe(sink: NetworkSink): void;
}
